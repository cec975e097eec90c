### The assessment model's own words in French, translated from crates/domain/data/model.json.
### It has exactly the messages of the English reference list; English itself is read from the model.

## Axes de motivation
model-axis-ACH = Accomplissement
model-axis-AUT = Autonomie
model-axis-REL = Affiliation
model-axis-SEC = Sécurité

## Besoins : un nom et ce que le besoin signifie (une phrase qui complète « <besoin> signifie : … »)
model-need-mastery = Expertise
model-need-mastery-definition = Se perfectionner dans des domaines exigeants et voir son expertise reconnue.
model-need-results = Résultats
model-need-results-definition = Atteindre des objectifs mesurables et voir le fruit de ses efforts.
model-need-challenge = Défi
model-need-challenge-definition = Relever des missions qui mettent ses capacités à l’épreuve.
model-need-recognition = Reconnaissance
model-need-recognition-definition = Voir sa contribution remarquée et appréciée par les autres.
model-need-independence = Indépendance
model-need-independence-definition = Décider soi-même comment et quand réaliser son travail.
model-need-creativity = Créativité
model-need-creativity-definition = Imaginer de nouvelles idées, de nouvelles approches et de nouvelles solutions.
model-need-variety = Variété
model-need-variety-definition = Changer souvent de tâches, de lieux et de problématiques.
model-need-ownership = Responsabilité
model-need-ownership-definition = Assumer la responsabilité d’un travail dans son ensemble, du début à la fin.
model-need-belonging = Appartenance
model-need-belonging-definition = Faire partie d’une équipe soudée.
model-need-helping = Aide aux autres
model-need-helping-definition = Soutenir les autres et les voir réussir.
model-need-harmony = Harmonie
model-need-harmony-definition = Travailler dans un climat serein, sans conflit ouvert.
model-need-influence = Influence
model-need-influence-definition = Convaincre les autres et peser sur les décisions collectives.
model-need-stability = Stabilité
model-need-stability-definition = Un travail prévisible, des attentes claires et un environnement constant.
model-need-structure = Structure
model-need-structure-definition = Des règles claires, des procédures établies et une manière de travailler bien ordonnée.
model-need-precision = Précision
model-need-precision-definition = Veiller à ce que chaque détail soit parfaitement exact.
model-need-balance = Équilibre
model-need-balance-definition = Garder un juste équilibre entre vie professionnelle et vie privée.

## Compétences (par leur identifiant stable)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Orientation résultats
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Agilité d’apprentissage
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Innovation
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Prise d’initiative
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Sens des responsabilités
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Collaboration
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Développement des autres
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Force de persuasion
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Gestion des conflits
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Planification et organisation
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Souci de la qualité
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Résilience
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Orientation client
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Capacité d’adaptation
