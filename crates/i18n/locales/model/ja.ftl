### The assessment model's words in Japanese, translated from crates/domain/data/model.json.
### Exactly the messages of the English reference: axis names, need names and definitions, competency names.
### Need definitions are full sentences ending with 。; the report shows them after
### 「<ニーズ>」とは、 (personality-means in locales/ja.ftl).

## モチベーション軸
model-axis-ACH = 達成
model-axis-AUT = 自律
model-axis-REL = 関係性
model-axis-SEC = 安心

## ニーズ：名前と、そのニーズの意味（「<ニーズ>」とは、に続く文）
model-need-mastery = 熟達
model-need-mastery-definition = 難しい物事の腕を磨き、その道の専門家として認められることです。
model-need-results = 成果
model-need-results-definition = 測定可能な目標を達成し、自らの努力が実を結ぶのを実感することです。
model-need-challenge = 挑戦
model-need-challenge-definition = 自分の能力の限界を押し広げるような課題に取り組むことです。
model-need-recognition = 承認
model-need-recognition-definition = 自分の貢献が周囲に認められ、評価されることです。
model-need-independence = 独立性
model-need-independence-definition = 仕事の進め方やタイミングを自分で決めることです。
model-need-creativity = 創造性
model-need-creativity-definition = 新しいアイデアや手法、解決策を生み出すことです。
model-need-variety = 変化
model-need-variety-definition = 仕事の内容や場所、取り組む課題が頻繁に変わることです。
model-need-ownership = オーナーシップ
model-need-ownership-definition = ひとまとまりの仕事に、最初から最後まで責任を持つことです。
model-need-belonging = 帰属意識
model-need-belonging-definition = 結束の強いチームの一員であることです。
model-need-helping = 支援
model-need-helping-definition = 他者を支え、その人が成功していく姿を見届けることです。
model-need-harmony = 調和
model-need-harmony-definition = 表立った対立のない、穏やかな雰囲気の中で働くことです。
model-need-influence = 影響力
model-need-influence-definition = 他者を説得し、集団の意思決定を方向づけることです。
model-need-stability = 安定
model-need-stability-definition = 仕事の見通しが立ち、求められることが明確で、環境が安定していることです。
model-need-structure = 秩序
model-need-structure-definition = 明確なルールや手順があり、整然とした進め方で仕事ができることです。
model-need-precision = 正確性
model-need-precision-definition = 細部に至るまで正確に仕上げることです。
model-need-balance = ワークライフバランス
model-need-balance-definition = 仕事と私生活のバランスを適切に保つことです。

## コンピテンシー（固定IDによる）
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = 達成志向
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = ラーニングアジリティ
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = 革新性
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = 主体性
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = 責任感
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = 協働
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = 他者育成
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = 説得力
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = 対立への対処
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = 計画・組織化
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = 品質志向
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = レジリエンス
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = 顧客志向
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = 適応力
