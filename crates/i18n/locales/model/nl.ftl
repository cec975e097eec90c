### Dutch (nl): the assessment model's words in Dutch, translated from crates/domain/data/model.json.
### Exactly the messages of the English reference: axis names, need names and definitions, competency names.
### A need's definition is a full sentence that reads naturally after "<behoefte> betekent: ".

## Motivatie-assen
model-axis-ACH = Prestatie
model-axis-AUT = Autonomie
model-axis-REL = Verbondenheid
model-axis-SEC = Zekerheid

## Behoeften: een naam en wat de behoefte inhoudt (een zin na "<behoefte> betekent: ...")
model-need-mastery = Meesterschap
model-need-mastery-definition = Steeds beter worden in moeilijke dingen en erkend worden als expert.
model-need-results = Resultaat
model-need-results-definition = Meetbare doelen halen en zien wat de eigen inspanning oplevert.
model-need-challenge = Uitdaging
model-need-challenge-definition = Taken aangaan die een beroep doen op het uiterste van de eigen mogelijkheden.
model-need-recognition = Erkenning
model-need-recognition-definition = Merken dat anderen de eigen bijdrage zien en waarderen.
model-need-independence = Zelfstandigheid
model-need-independence-definition = Zelf bepalen hoe en wanneer het werk wordt gedaan.
model-need-creativity = Creativiteit
model-need-creativity-definition = Nieuwe ideeën, benaderingen en oplossingen bedenken.
model-need-variety = Afwisseling
model-need-variety-definition = Regelmatig wisselen van taken, plekken en vraagstukken.
model-need-ownership = Eigenaarschap
model-need-ownership-definition = Van begin tot eind verantwoordelijk zijn voor een volledig stuk werk.
model-need-belonging = Saamhorigheid
model-need-belonging-definition = Deel uitmaken van een hecht team.
model-need-helping = Helpen
model-need-helping-definition = Anderen ondersteunen en hen succes zien boeken.
model-need-harmony = Harmonie
model-need-harmony-definition = Werken in een rustige sfeer zonder openlijke conflicten.
model-need-influence = Invloed
model-need-influence-definition = Anderen overtuigen en richting geven aan de beslissingen van de groep.
model-need-stability = Stabiliteit
model-need-stability-definition = Voorspelbaar werk, duidelijke verwachtingen en een vaste, rustige werkomgeving.
model-need-structure = Structuur
model-need-structure-definition = Duidelijke regels en procedures en een ordelijke manier van werken.
model-need-precision = Nauwkeurigheid
model-need-precision-definition = Ervoor zorgen dat de details precies kloppen.
model-need-balance = Balans
model-need-balance-definition = Werk en privéleven met elkaar in evenwicht houden.

## Competenties (op hun vaste id)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Resultaatgerichtheid
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Lerend vermogen
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Innovatief vermogen
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Zelfsturing
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Verantwoordelijkheid
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Samenwerken
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Coachen van anderen
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Overtuigingskracht
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Conflicthantering
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Plannen en organiseren
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Kwaliteitsgerichtheid
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Veerkracht
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Klantgerichtheid
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Aanpassingsvermogen
