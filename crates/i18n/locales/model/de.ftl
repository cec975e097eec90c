### The assessment model's own words in German, translated from crates/domain/data/model.json.
### It has exactly the messages of the English reference list; English itself is read from the model.

## Motivationsachsen
model-axis-ACH = Leistung
model-axis-AUT = Autonomie
model-axis-REL = Soziale Eingebundenheit
model-axis-SEC = Sicherheit

## Bedürfnisse: Name und Bedeutung (ein Satz, der „<Bedürfnis> bedeutet: …“ fortsetzt)
model-need-mastery = Expertise
model-need-mastery-definition = Bei schwierigen Aufgaben immer besser werden und als Fachautorität anerkannt sein.
model-need-results = Ergebnisse
model-need-results-definition = Messbare Ziele erreichen und sehen, was die eigene Anstrengung bewirkt.
model-need-challenge = Herausforderung
model-need-challenge-definition = Aufgaben übernehmen, die die eigenen Fähigkeiten auf die Probe stellen und erweitern.
model-need-recognition = Anerkennung
model-need-recognition-definition = Erleben, dass der eigene Beitrag von anderen wahrgenommen und geschätzt wird.
model-need-independence = Unabhängigkeit
model-need-independence-definition = Selbst entscheiden, wie und wann die eigene Arbeit erledigt wird.
model-need-creativity = Kreativität
model-need-creativity-definition = Neue Ideen, Ansätze und Lösungen entwickeln.
model-need-variety = Abwechslung
model-need-variety-definition = Häufig wechselnde Aufgaben, Orte und Problemstellungen.
model-need-ownership = Eigenverantwortung
model-need-ownership-definition = Für ein Arbeitsergebnis von Anfang bis Ende die volle Verantwortung tragen.
model-need-belonging = Zugehörigkeit
model-need-belonging-definition = Teil eines Teams sein, das zusammenhält.
model-need-helping = Helfen
model-need-helping-definition = Andere unterstützen und erleben, wie sie erfolgreich sind.
model-need-harmony = Harmonie
model-need-harmony-definition = In einem ruhigen Arbeitsklima ohne offene Konflikte arbeiten.
model-need-influence = Einfluss
model-need-influence-definition = Andere überzeugen und Gruppenentscheidungen maßgeblich mitgestalten.
model-need-stability = Stabilität
model-need-stability-definition = Vorhersehbare Arbeit, klare Erwartungen und ein beständiges Umfeld.
model-need-structure = Struktur
model-need-structure-definition = Klare Regeln, feste Abläufe und eine geordnete Arbeitsweise.
model-need-precision = Präzision
model-need-precision-definition = Bei jedem Detail absolut genau und fehlerfrei arbeiten.
model-need-balance = Work-Life-Balance
model-need-balance-definition = Berufs- und Privatleben in einem ausgewogenen Verhältnis halten.

## Kompetenzen (nach ihrer stabilen ID)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Ergebnisorientierung
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Lernagilität
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Innovationsfähigkeit
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Selbstständigkeit
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Verantwortungsbewusstsein
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Kooperationsfähigkeit
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Förderung anderer
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Überzeugungskraft
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Konfliktfähigkeit
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Planung und Organisation
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Qualitätsorientierung
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Resilienz
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Kundenorientierung
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Anpassungsfähigkeit
