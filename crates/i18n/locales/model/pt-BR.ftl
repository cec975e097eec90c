### Brazilian Portuguese (pt-BR): the assessment model's words in Portuguese, translated from crates/domain/data/model.json.
### Exactly the messages of the English reference: axis names, need names and definitions, competency names.
### A need's definition is a full sentence that reads naturally after "<necessidade> significa: ".

## Eixos motivacionais
model-axis-ACH = Realização
model-axis-AUT = Autonomia
model-axis-REL = Relacionamento
model-axis-SEC = Segurança

## Necessidades: um nome e o que a necessidade significa (uma frase após "<necessidade> significa: ...")
model-need-mastery = Maestria
model-need-mastery-definition = Evoluir em tarefas difíceis e ter a própria expertise reconhecida.
model-need-results = Resultados
model-need-results-definition = Atingir metas mensuráveis e ver o resultado do próprio esforço.
model-need-challenge = Desafio
model-need-challenge-definition = Assumir tarefas que exijam ir além das próprias capacidades.
model-need-recognition = Reconhecimento
model-need-recognition-definition = Ter a própria contribuição percebida e valorizada pelos outros.
model-need-independence = Independência
model-need-independence-definition = Decidir como e quando realizar o próprio trabalho.
model-need-creativity = Criatividade
model-need-creativity-definition = Criar novas ideias, abordagens e soluções.
model-need-variety = Variedade
model-need-variety-definition = Alternar com frequência entre tarefas, lugares e problemas.
model-need-ownership = Senso de dono
model-need-ownership-definition = Ser responsável por um trabalho completo, do início ao fim.
model-need-belonging = Pertencimento
model-need-belonging-definition = Fazer parte de uma equipe unida.
model-need-helping = Ajuda aos outros
model-need-helping-definition = Apoiar outras pessoas e vê-las alcançar o sucesso.
model-need-harmony = Harmonia
model-need-harmony-definition = Trabalhar em um clima tranquilo, sem conflitos abertos.
model-need-influence = Influência
model-need-influence-definition = Persuadir outras pessoas e orientar as decisões do grupo.
model-need-stability = Estabilidade
model-need-stability-definition = Trabalho previsível, expectativas claras e um ambiente constante.
model-need-structure = Estrutura
model-need-structure-definition = Regras e procedimentos claros e uma forma de trabalhar bem organizada.
model-need-precision = Precisão
model-need-precision-definition = Garantir que cada detalhe esteja exatamente certo.
model-need-balance = Equilíbrio
model-need-balance-definition = Manter uma boa proporção entre trabalho e vida pessoal.

## Competências (pelo id estável)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Orientação para resultados
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Agilidade de aprendizagem
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Inovação
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Autogestão
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Responsabilidade
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Colaboração
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Desenvolvimento de pessoas
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Persuasão
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Gestão de conflitos
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Planejamento e organização
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Foco em qualidade
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Resiliência
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Orientação para o cliente
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Adaptabilidade
