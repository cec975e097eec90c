### Italian (it): the assessment model's words in Italian, translated from crates/domain/data/model.json.
### Exactly the messages of the English reference: axis names, need names and definitions, competency names.
### A need's definition is a full sentence that reads naturally after "<bisogno> significa: ".

## Assi motivazionali
model-axis-ACH = Realizzazione
model-axis-AUT = Autonomia
model-axis-REL = Relazione
model-axis-SEC = Sicurezza

## Bisogni: un nome e che cosa significa il bisogno (una frase dopo "<bisogno> significa: ...")
model-need-mastery = Padronanza
model-need-mastery-definition = Migliorare continuamente nelle attività difficili ed essere riconosciuti come esperti.
model-need-results = Risultati
model-need-results-definition = Raggiungere obiettivi misurabili e vedere il frutto del proprio impegno.
model-need-challenge = Sfida
model-need-challenge-definition = Affrontare compiti che spingono oltre i propri limiti.
model-need-recognition = Riconoscimento
model-need-recognition-definition = Vedere il proprio contributo notato e apprezzato dagli altri.
model-need-independence = Indipendenza
model-need-independence-definition = Decidere come e quando svolgere il proprio lavoro.
model-need-creativity = Creatività
model-need-creativity-definition = Proporre nuove idee, nuovi approcci e nuove soluzioni.
model-need-variety = Varietà
model-need-variety-definition = Cambiare spesso attività, luoghi e problemi da affrontare.
model-need-ownership = Responsabilità diretta
model-need-ownership-definition = Rispondere di un intero lavoro, dall'inizio alla fine.
model-need-belonging = Appartenenza
model-need-belonging-definition = Far parte di un team affiatato.
model-need-helping = Aiuto agli altri
model-need-helping-definition = Sostenere gli altri e vederli avere successo.
model-need-harmony = Armonia
model-need-harmony-definition = Lavorare in un clima sereno, senza conflitti aperti.
model-need-influence = Influenza
model-need-influence-definition = Persuadere gli altri e orientare le decisioni del gruppo.
model-need-stability = Stabilità
model-need-stability-definition = Un lavoro prevedibile, aspettative chiare e un ambiente costante.
model-need-structure = Struttura
model-need-structure-definition = Regole chiare, procedure definite e un modo di lavorare ben organizzato.
model-need-precision = Precisione
model-need-precision-definition = Fare in modo che ogni dettaglio sia esattamente corretto.
model-need-balance = Equilibrio
model-need-balance-definition = Mantenere nelle giuste proporzioni lavoro e vita privata.

## Competenze (per il loro id stabile)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Orientamento al risultato
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Agilità di apprendimento
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Innovazione
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Autogestione
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Assunzione di responsabilità
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Collaborazione
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Sviluppo delle persone
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Persuasione
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Gestione dei conflitti
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Pianificazione e organizzazione
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Orientamento alla qualità
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Resilienza
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Orientamento al cliente
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Adattabilità
