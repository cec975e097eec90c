### The assessment model's words in Simplified Chinese, translated from crates/domain/data/model.json.
### Exactly the messages of the English reference: axis names, need names and definitions, competency names.
### Need definitions are full sentences ending with 。; the report shows them after
### “<需求>”是指 (personality-means in locales/zh-Hans.ftl).

## 动机维度
model-axis-ACH = 成就
model-axis-AUT = 自主
model-axis-REL = 关系
model-axis-SEC = 安全

## 需求：名称及其含义（接在“<需求>”是指之后的完整句子）
model-need-mastery = 精通
model-need-mastery-definition = 在有难度的领域不断精进，并被公认为专家。
model-need-results = 成果
model-need-results-definition = 达成可衡量的目标，并看到自己的努力取得实效。
model-need-challenge = 挑战
model-need-challenge-definition = 承担能够拓展自身能力边界的任务。
model-need-recognition = 认可
model-need-recognition-definition = 自己的贡献被他人看到并得到赏识。
model-need-independence = 独立
model-need-independence-definition = 自主决定以何种方式、在何时开展工作。
model-need-creativity = 创造
model-need-creativity-definition = 提出新的想法、方法和解决方案。
model-need-variety = 多样性
model-need-variety-definition = 经常变换工作任务、工作地点和所要解决的问题。
model-need-ownership = 主人翁意识
model-need-ownership-definition = 对一项完整的工作从头到尾全面负责。
model-need-belonging = 归属感
model-need-belonging-definition = 成为一个团结一心的团队中的一员。
model-need-helping = 助人
model-need-helping-definition = 支持他人，并见证他们取得成功。
model-need-harmony = 和谐
model-need-harmony-definition = 在平和、没有公开冲突的氛围中工作。
model-need-influence = 影响力
model-need-influence-definition = 说服他人，并对群体决策施加影响。
model-need-stability = 稳定
model-need-stability-definition = 工作可预期、期望明确、环境稳定。
model-need-structure = 秩序
model-need-structure-definition = 有清晰的规则和流程，工作方式井然有序。
model-need-precision = 精确
model-need-precision-definition = 把每个细节都做得准确无误。
model-need-balance = 工作生活平衡
model-need-balance-definition = 兼顾工作与个人生活，使两者保持适当的比例。

## 胜任力（按固定ID）
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = 结果导向
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = 学习敏锐度
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = 创新
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = 自我驱动
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = 责任担当
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = 团队协作
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = 培养他人
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = 说服力
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = 冲突处理
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = 计划与组织
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = 质量导向
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = 心理韧性
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = 客户导向
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = 适应能力
