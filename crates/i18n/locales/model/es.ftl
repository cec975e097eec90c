### The assessment model's own words in Spanish, translated from crates/domain/data/model.json.
### It has exactly the messages of the English reference list; English itself is read from the model.

## Ejes de motivación
model-axis-ACH = Logro
model-axis-AUT = Autonomía
model-axis-REL = Afiliación
model-axis-SEC = Seguridad

## Necesidades: un nombre y lo que significa la necesidad (una frase que completa «<necesidad> significa: …»)
model-need-mastery = Maestría
model-need-mastery-definition = Perfeccionarse en tareas difíciles y ver reconocida su pericia.
model-need-results = Resultados
model-need-results-definition = Alcanzar objetivos medibles y ver el fruto del propio esfuerzo.
model-need-challenge = Reto
model-need-challenge-definition = Asumir tareas que pongan a prueba las propias capacidades.
model-need-recognition = Reconocimiento
model-need-recognition-definition = Sentir que los demás ven y valoran la propia aportación.
model-need-independence = Independencia
model-need-independence-definition = Decidir cómo y cuándo realizar el propio trabajo.
model-need-creativity = Creatividad
model-need-creativity-definition = Generar ideas, enfoques y soluciones nuevos.
model-need-variety = Variedad
model-need-variety-definition = Cambiar con frecuencia de tareas, de lugares y de problemas.
model-need-ownership = Responsabilidad
model-need-ownership-definition = Hacerse cargo de un trabajo completo, de principio a fin.
model-need-belonging = Pertenencia
model-need-belonging-definition = Formar parte de un equipo unido.
model-need-helping = Ayuda a los demás
model-need-helping-definition = Apoyar a otras personas y ver cómo tienen éxito.
model-need-harmony = Armonía
model-need-harmony-definition = Trabajar en un clima tranquilo, sin conflictos abiertos.
model-need-influence = Influencia
model-need-influence-definition = Persuadir a los demás y orientar las decisiones del grupo.
model-need-stability = Estabilidad
model-need-stability-definition = Un trabajo previsible, unas expectativas claras y un entorno sin sobresaltos.
model-need-structure = Estructura
model-need-structure-definition = Normas y procedimientos claros y una forma de trabajar bien organizada.
model-need-precision = Precisión
model-need-precision-definition = Hacer que cada detalle quede exactamente como debe ser.
model-need-balance = Equilibrio
model-need-balance-definition = Mantener la vida laboral y la personal en su justa proporción.

## Competencias (por su identificador estable)
# Drive for results
model-competency-9b51d491-f098-59ce-a81a-e3eba994b8ad = Orientación a resultados
# Learning agility
model-competency-d138d255-c79d-5925-b143-2661110353d0 = Agilidad de aprendizaje
# Innovation
model-competency-13ab7839-a749-5ca4-ab1a-8bac74fd4c4f = Innovación
# Self-direction
model-competency-19e0e0ca-bdfd-5b78-bd37-c17cae83de8b = Autogestión
# Accountability
model-competency-472b622e-b10f-55e7-8c67-8bed4f1fdaa8 = Sentido de la responsabilidad
# Collaboration
model-competency-57ce52cf-8ce6-5b0a-bc2c-f144823582a0 = Colaboración
# Coaching others
model-competency-daa80362-13b3-5739-b3d0-cc71f296243c = Desarrollo de personas
# Persuasion
model-competency-8c2ce72d-2ee9-5bc6-b3be-18794ea74730 = Persuasión
# Conflict handling
model-competency-d9849880-2d5d-5264-bde1-a496fddea47d = Gestión de conflictos
# Planning and organising
model-competency-49d8632c-2331-519c-92d0-655054d14976 = Planificación y organización
# Quality focus
model-competency-f877f074-4866-5b32-9285-21356c7f5325 = Orientación a la calidad
# Resilience
model-competency-356d234f-8236-5c4d-9412-8d99edffc15f = Resiliencia
# Customer orientation
model-competency-43582524-7ed3-545a-aaf0-dbdb93078261 = Orientación al cliente
# Adaptability
model-competency-88ffa939-f60f-5a11-9492-064762e80521 = Adaptabilidad
