### The assessment model's words in Polish, translated from crates/domain/data/model.json.
### Exactly the messages of the English reference: axis names, need names and definitions, competency names.
### Need definitions are full sentences (capital letter, final period); the report shows them
### after the question: Co oznacza „<potrzeba>”? (personality-means in locales/pl.ftl).

## Osie motywacji
model-axis-ACH = Osiągnięcia
model-axis-AUT = Autonomia
model-axis-REL = Relacje
model-axis-SEC = Bezpieczeństwo

## Potrzeby: nazwa i jej znaczenie (pełne zdanie po pytaniu: Co oznacza „<potrzeba>”?)
model-need-mastery = Mistrzostwo
model-need-mastery-definition = Coraz większa biegłość w trudnych zadaniach i uznanie w roli eksperta.
model-need-results = Wyniki
model-need-results-definition = Osiąganie mierzalnych celów i widoczne efekty własnej pracy.
model-need-challenge = Wyzwania
model-need-challenge-definition = Podejmowanie zadań, które poszerzają granice własnych możliwości.
model-need-recognition = Uznanie
model-need-recognition-definition = Poczucie, że inni dostrzegają i doceniają wniesiony wkład.
model-need-independence = Niezależność
model-need-independence-definition = Samodzielne decydowanie o tym, jak i kiedy wykonywać swoją pracę.
model-need-creativity = Kreatywność
model-need-creativity-definition = Wymyślanie nowych pomysłów, podejść i rozwiązań.
model-need-variety = Różnorodność
model-need-variety-definition = Częsta zmiana zadań, miejsc i problemów do rozwiązania.
model-need-ownership = Odpowiedzialność za całość
model-need-ownership-definition = Odpowiadanie za całe zadanie lub projekt – od początku do końca.
model-need-belonging = Przynależność
model-need-belonging-definition = Bycie częścią zgranego zespołu, który trzyma się razem.
model-need-helping = Pomaganie
model-need-helping-definition = Wspieranie innych i radość z ich sukcesów.
model-need-harmony = Harmonia
model-need-harmony-definition = Praca w spokojnej atmosferze, bez otwartych konfliktów.
model-need-influence = Wpływ
model-need-influence-definition = Przekonywanie innych i kształtowanie decyzji grupy.
model-need-stability = Stabilność
model-need-stability-definition = Przewidywalna praca, jasne oczekiwania i stałe otoczenie.
model-need-structure = Struktura
model-need-structure-definition = Jasne zasady, procedury i uporządkowany sposób pracy.
model-need-precision = Precyzja
model-need-precision-definition = Dopracowanie każdego szczegółu z pełną dokładnością.
model-need-balance = Równowaga
model-need-balance-definition = Zachowanie właściwych proporcji między pracą a życiem prywatnym.

## Kompetencje (według stałego identyfikatora)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Orientacja na wyniki
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Zwinność w uczeniu się
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Innowacyjność
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Samodzielność
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Odpowiedzialność
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Współpraca
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Rozwijanie innych
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Perswazja
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Rozwiązywanie konfliktów
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Planowanie i organizowanie
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Dbałość o jakość
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Odporność psychiczna
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Orientacja na klienta
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Zdolność adaptacji
