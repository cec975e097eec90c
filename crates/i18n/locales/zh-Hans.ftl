### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## 电子邮件

invitation-email-subject = { $reminder ->
        [yes] 提醒：{ $variant ->
            [access] { $company }邀请您共享测评档案
           *[assessment] { $company }邀请您参加测评
        }
       *[no] { $variant ->
            [access] { $company }邀请您共享测评档案
           *[assessment] { $company }邀请您参加测评
        }
    }
email-greeting = { $name }，您好！
email-greeting-anonymous = 您好！
invitation-email-intro = { $variant ->
        [access] { $company }邀请您加入其人才库，并共享您已有的测评档案。
       *[assessment] { $company }邀请您参加一项工作动机测评，了解工作中真正激励您的因素。
    }
invitation-email-message = 来自{ $company }的留言：
invitation-email-link = 请点击以下链接进行回复：
invitation-email-valid-until = 该链接有效期至{ $expiry }。
code-email-subject = { $company }：您的验证码
code-email-intro = 您用于确认回复{ $company }邀请的验证码为：
code-email-validity = { $minutes ->
       *[other] 验证码{ $minutes }分钟内有效，请在邀请页面中输入。
    }
code-email-ignore = 如非本人操作，请忽略本邮件。未使用验证码的情况下，不会发生任何变更。

## 测评中的便利安排

accommodations-intro = 您在本次测评中可享受以下便利安排：
accommodation-extra-time = 额外{ $percent }%的作答时间
accommodation-breaks = 可根据需要随时在各部分之间休息
accommodation-screen-reader = 全面支持屏幕阅读器
accommodation-notes = 其他约定事项：{ $notes }

## 邀请页面

page-invitation-title = 来自{ $company }的邀请
page-assessment-intro = { $company }邀请您参加一项工作动机测评，了解工作中真正激励您的因素。
page-assessment-consent = 接受邀请后，您将以此邮箱地址（{ $email }）加入{ $company }的人才库。您之后可以随时退出。
page-accept-button = 接受邀请
page-access-intro = { $company }希望您加入其人才库，并共享您已有的测评档案。
page-access-share-label = 是的，我同意{ $company }查看我在加入之前完成的测评结果。
page-access-share-help = 如不勾选，{ $company }只能看到您从现在起完成的测评。如勾选，我们会先向{ $email }发送验证码，以确认是您本人作出的回复。
page-access-button = 接受
page-valid-until = 此邀请有效期至{ $expiry }。
page-accommodations-title = 您的便利安排
page-used-title = 邀请已被使用
page-used-body = 来自{ $company }的此邀请已被接受，无需进行其他操作。
page-expired-title = 邀请已过期
page-expired-body = 来自{ $company }的此邀请已过期。请联系{ $company }重新发送邀请。
page-withdrawn-title = 邀请已撤回
page-withdrawn-body = { $company }已撤回此邀请。
page-not-found-title = 未找到邀请
page-not-found-body = 此链接无效。请检查是否复制了完整的链接。
page-deactivated-title = 无法加入
page-deactivated-body = 您的参与资格已被该机构停用。请与该机构联系。
page-full-title = 暂时无法加入
page-full-body = 该机构目前暂不接收新成员。请与该机构联系。
page-no-longer-valid-title = 邀请已失效
page-no-longer-valid-body = 此邀请已无法接受。
page-error-title = 出错了
page-error-body = 请稍等一分钟后重试。

## 一次性验证码

page-code-title = 确认本人身份
page-code-label = 邮件中的验证码
page-code-button = 确认
page-code-help = { $minutes ->
       *[other] 只有您本人才能以同意的方式回复{ $company }：验证码可证明您能够查收此邮箱的邮件。验证码{ $minutes }分钟内有效。
    }
page-code-resend = 重新发送验证码
page-code-sent = 我们已向{ $email }发送了6位数验证码。请在此处输入以完成确认。
page-code-not-sent = 暂时无法发送验证码。请一分钟后重新获取验证码。
page-code-too-many = 向此邮箱发送的验证码次数过多。请使用最近收到的验证码，或一小时后再试。
page-code-no-live = 此验证码已失效（已过期、已使用或输错次数过多）。请重新获取验证码。
page-code-wrong = { $tries ->
        [0] 验证码不正确。此验证码已无剩余尝试次数。
       *[other] 验证码不正确。此验证码还可尝试{ $tries }次。
    }
page-code-malformed = 验证码为6位数字，请重新输入。

## 接受邀请后

page-welcome-title = 欢迎
page-welcome-body = 您已接受邀请。您的邮箱地址为{ $email }。现在可以关闭此页面。
page-continue = 前往{ $host }

## 测评报告

report-title = 测评报告
report-completed = 完成日期：{ $date }
report-needs = 各动机维度的需求
report-competencies = 胜任力：动机支持程度
report-personality = 个性特质
report-accommodations = 便利安排
report-footer = 本报告仅描述一个人。分数反映的是动机对各项胜任力的支持程度，并非能力的衡量标准，且绝不用于人与人之间的比较。
report-basis = { $assessments ->
       *[other] 基于{ $assessments }次测评（共{ $responses }个回答）
    }
report-model = 模型：{ $model } { $version }，映射：{ $mapping }
report-anchor = 锚点
report-band-limited = 有限
report-band-some = 部分
report-band-moderate = 中等
report-band-high = 高

## 报告中的个性描述：仅根据此人自己的结果生成。
## $needs 和 $competencies 是名称列表，已按该语言的方式连接好（“A、B和C”）。

personality-drives = 此人的驱动力
personality-strongest = 最主要的激励因素是{ $needs }。能够满足这些需求的工作，往往更能让其充满干劲。
# $need：最主要激励因素的名称；$definition：其含义（来自模型、以“。”结尾的完整句子）。
personality-means = “{ $need }”是指{ $definition }
personality-less-central = 相对次要的是{ $needs }，在面临多种选择时，它们的影响较小。
personality-competencies = 动机所支持的胜任力
personality-strong = 支持程度高：{ $competencies }。
personality-moderate = 支持程度中等：{ $competencies }。
personality-limited = 支持程度有限：{ $competencies }。
personality-even = 动机对各项胜任力的支持程度大致相当。
personality-basis = 基于{ $assessments ->
       *[other] { $assessments }次测评
    }和{ $responses }个回答。等级反映的是动机的支持程度，而非能力水平。

## 通过ATS链接打开的报告页面（供机构的招聘人员查看）

report-page-shared = 由{ $company }通过其招聘管理系统（ATS）共享。完成日期：{ $date }
report-page-match = 与{ $profile }的匹配度
report-page-category = { $category ->
        [high] 高
        [moderate] 中等
       *[low] 低
    }
report-page-competency = 胜任力
report-page-score = 分数
report-page-band = 等级
report-page-download = 下载PDF报告
report-page-gone-title = 此报告已无法查看
report-page-gone-body = 链接已过期，或报告已被撤回。请联系发送该链接的机构获取新链接。
report-page-not-found-title = 未找到报告
report-page-not-found-body = 此链接无效。
report-page-busy-title = 请重试
report-page-busy-body = 报告暂时无法显示。请稍等一分钟后重试。
