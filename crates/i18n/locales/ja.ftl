### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## メール

invitation-email-subject = { $reminder ->
        [yes] 【リマインダー】{ $variant ->
            [access] { $company }よりアセスメントプロフィール共有のお願い
           *[assessment] { $company }よりアセスメント受検のご案内
        }
       *[no] { $variant ->
            [access] { $company }よりアセスメントプロフィール共有のお願い
           *[assessment] { $company }よりアセスメント受検のご案内
        }
    }
email-greeting = { $name } 様
email-greeting-anonymous = こんにちは。
invitation-email-intro = { $variant ->
        [access] { $company }より、人材プールへのご参加と、すでにお持ちのアセスメントプロフィールの共有についてご依頼が届いています。
       *[assessment] { $company }より、仕事におけるモチベーションの源泉を測るアセスメント受検のご案内が届いています。
    }
invitation-email-message = { $company }からのメッセージ：
invitation-email-link = 以下のリンクからご回答ください：
invitation-email-valid-until = このリンクの有効期限は{ $expiry }です。
code-email-subject = { $company }：確認コードのお知らせ
code-email-intro = { $company }からのご招待への回答を確認するためのコードは次のとおりです：
code-email-validity = { $minutes ->
       *[other] このコードの有効期間は{ $minutes }分です。招待ページで入力してください。
    }
code-email-ignore = このコードに心当たりがない場合は、本メールを破棄してください。コードが入力されない限り、何も変更されません。

## アセスメントで認められた配慮

accommodations-intro = 今回のアセスメントでは、以下の配慮が認められています：
accommodation-extra-time = 受検時間を{ $percent }%延長
accommodation-breaks = 各パートの間で、必要に応じていつでも休憩可能
accommodation-screen-reader = スクリーンリーダーへの完全対応
accommodation-notes = その他の合意事項：{ $notes }

## 招待ページ

page-invitation-title = { $company }からのご招待
page-assessment-intro = { $company }より、仕事におけるモチベーションの源泉を測るアセスメント受検のご案内が届いています。
page-assessment-consent = 招待を承諾すると、このメールアドレス（{ $email }）で{ $company }の人材プールに登録されます。登録は後から取り消すことができます。
page-accept-button = 招待を承諾する
page-access-intro = { $company }より、人材プールへのご参加と、すでにお持ちのアセスメントプロフィールの共有についてご依頼が届いています。
page-access-share-label = はい、参加前に受検したアセスメントの結果を{ $company }が閲覧することに同意します。
page-access-share-help = チェックを入れない場合、{ $company }が閲覧できるのは今後受検するアセスメントの結果のみです。チェックを入れた場合は、ご本人による回答であることを確認するため、まず{ $email }宛てに確認コードをお送りします。
page-access-button = 承諾する
page-valid-until = この招待の有効期限は{ $expiry }です。
page-accommodations-title = あなたへの配慮事項
page-used-title = 招待は使用済みです
page-used-body = { $company }からのこの招待はすでに承諾されています。これ以上の操作は必要ありません。
page-expired-title = 招待の有効期限が切れています
page-expired-body = { $company }からのこの招待は有効期限が切れています。お手数ですが、{ $company }に新しい招待をご依頼ください。
page-withdrawn-title = 招待は取り消されました
page-withdrawn-body = この招待は{ $company }によって取り消されました。
page-not-found-title = 招待が見つかりません
page-not-found-body = このリンクは無効です。リンク全体が正しくコピーされているかご確認ください。
page-deactivated-title = 参加できません
page-deactivated-body = あなたの参加は組織によって停止されています。組織へ直接お問い合わせください。
page-full-title = 現在は参加できません
page-full-body = 組織は現在、新規の受け入れを行っておりません。組織へ直接お問い合わせください。
page-no-longer-valid-title = この招待は無効です
page-no-longer-valid-body = この招待は無効になったため、承諾できません。
page-error-title = エラーが発生しました
page-error-body = 1分ほど経ってから、もう一度お試しください。

## ワンタイムコード

page-code-title = ご本人確認
page-code-label = メールに記載されたコード
page-code-button = 確認する
page-code-help = { $minutes ->
       *[other] 同意のうえで{ $company }に回答できるのはご本人だけです。このコードにより、このメールアドレスでメールを受信できることを確認します。コードの有効期間は{ $minutes }分です。
    }
page-code-resend = 新しいコードを送信
page-code-sent = { $email }宛てに6桁のコードを送信しました。確認のため、こちらに入力してください。
page-code-not-sent = ただいまコードを送信できませんでした。1分ほど経ってから、新しいコードをリクエストしてください。
page-code-too-many = このメールアドレスに送信されたコードが多すぎます。最後に届いたコードを使用するか、1時間後にもう一度お試しください。
page-code-no-live = このコードは無効になりました（有効期限切れ、使用済み、または入力誤りが上限に達しました）。新しいコードをリクエストしてください。
page-code-wrong = { $tries ->
        [0] コードが正しくありません。このコードではこれ以上入力できません。
       *[other] コードが正しくありません。このコードで、あと{ $tries }回入力できます。
    }
page-code-malformed = コードは6桁です。もう一度入力してください。

## 承諾後

page-welcome-title = ようこそ
page-welcome-body = 招待の承諾が完了しました。ご登録のメールアドレスは{ $email }です。このページは閉じていただいて構いません。
page-continue = { $host }へ進む

## レポート

report-title = アセスメントレポート
report-completed = 受検完了日：{ $date }
report-needs = モチベーション軸別のニーズ
report-competencies = コンピテンシー：モチベーションによる支え
report-personality = パーソナリティ
report-accommodations = 配慮事項
report-footer = 本レポートは1名の個人について記述したものです。スコアは、各コンピテンシーをモチベーションがどの程度支えているかを示すものであり、能力を測定するものではありません。また、他者との比較には一切使用されません。
report-basis = { $assessments ->
       *[other] { $assessments }回のアセスメント（回答{ $responses }件）に基づく結果
    }
report-model = モデル：{ $model } { $version }、マッピング：{ $mapping }
report-anchor = アンカー
report-band-limited = 限定的
report-band-some = ある程度
report-band-moderate = 中程度
report-band-high = 高い

## レポートのパーソナリティ記述：本人の結果のみをもとに作成されます。
## $needs と $competencies は名前のリストで、言語ごとの形式ですでに連結されています（「A、B、C」）。

personality-drives = この人の原動力
personality-strongest = 最も強いモチベーション要因は{ $needs }です。これらが得られる仕事は、意欲と活力の源になりやすいでしょう。
# $need：最も強いモチベーション要因の名前。$definition：その意味（モデルに基づく、「。」で終わる文）。
personality-means = 「{ $need }」とは、{ $definition }
personality-less-central = 相対的に重要度が低いのは{ $needs }で、複数の選択肢から選ぶ際の判断にはあまり影響しません。
personality-competencies = モチベーションが支えるコンピテンシー
personality-strong = 支えが強い：{ $competencies }
personality-moderate = 支えが中程度：{ $competencies }
personality-limited = 支えが限定的：{ $competencies }
personality-even = モチベーションは、すべてのコンピテンシーをほぼ均等に支えています。
personality-basis = { $assessments ->
       *[other] { $assessments }回のアセスメント
    }と{ $responses }件の回答に基づく結果です。レベルはモチベーションによる支えの度合いを示すものであり、能力を示すものではありません。

## ATSのリンクから開くレポートページ（組織の採用担当者が閲覧）

report-page-shared = { $company }の採用管理システム（ATS）経由で共有されたレポートです。受検完了日：{ $date }
report-page-match = { $profile }との適合度
report-page-category = { $category ->
        [high] 高い
        [moderate] 中程度
       *[low] 低い
    }
report-page-competency = コンピテンシー
report-page-score = スコア
report-page-band = レベル
report-page-download = PDFレポートをダウンロード
report-page-gone-title = このレポートは閲覧できなくなりました
report-page-gone-body = リンクの有効期限が切れたか、レポートの共有が取り消されました。送信元の組織に新しいリンクをご依頼ください。
report-page-not-found-title = レポートが見つかりません
report-page-not-found-body = このリンクは無効です。
report-page-busy-title = もう一度お試しください
report-page-busy-body = 現在、レポートを表示できません。1分ほど経ってから、もう一度お試しください。
