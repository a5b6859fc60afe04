"""Time questions on a month of a person's own notes, in five languages: hit@1 and hit@3.

    .venv/bin/python benchmarks/time_questions.py [--langs en,de,es,fr,zh] [--modes lexical,hybrid]
                                                  [--configs plain,languages] [--workdir DIR] [--verbose]
                                                  [--constants window.WINDOW_FLOOR=0.3]

Issue 37. One person's daily logs and `## Retain` facts about three people (Priya, a colleague who
runs a billing migration; Lena, a friend who moves to Hamburg and comes to visit; Tom, a brother who
travels, has a birthday, keeps habits), written from Nov 3 to Nov 26, 2025, and asked on Wednesday
Nov 26 at 18:00. The notes hold what real notes hold: plans written days before they happen ("Dec 4
is the API deep-dive", written Nov 10), trips with ranges ("Dec 5–7"), appointments, a moved date
(the dentist, Nov 27 -> Dec 2; the dry run, Nov 25 -> Thursday), habits ("every Sunday morning"), and
dates named in the middle of a narrative line ("back on the 23rd").

The same notes, line for line, in English, German, Spanish, French and Chinese; 30 questions a
language, the same 30 in each (past days, upcoming days, "next week", "last weekend", ordinals,
ranges, moved dates, a habit), each with the lines that answer it. A question is answered at n when
one of its first n results covers one of those lines (the line lies in the result's
[start_line, end_line] of the same file).

Configs: `plain` (no memory.toml) and `languages` (`[time] languages = ["en", <lang>]`; for English
all five). Written before any change of issue 37 (the "before" figures are in docs/recall.md and
docs/benchmarks.md). Targets: English >= 27/30 at 3; every other language >= 0.9 x English.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from stats import hit_rank, patch_constants, print_top, question_set_args
from workspace_memory.api import Memory
from workspace_memory.errors import ProviderUnavailable
from workspace_memory.recall.query import RecallRequest

NOW = "2025-11-26T18:00"  # a Wednesday
LANGS = ("en", "de", "es", "fr", "zh")

# day -> [(line id, prefix or "" for a narrative bullet under ## Notes, {lang: text})]
# A prefix ("W @Priya") makes the line a Retain fact; the grammar's prefix is the same in every language.
NOTES: dict[str, list[tuple[str, str, dict[str, str]]]] = {
    "2025-11-03": [
        ("kickoff", "", {
            "en": "Kicked off the Q4 billing migration with Priya; she owns the data export.",
            "de": "Mit Priya die Abrechnungsmigration für Q4 gestartet; sie kümmert sich um den Datenexport.",
            "es": "Arrancamos con Priya la migración de facturación del cuarto trimestre; ella se encarga de la exportación de datos.",
            "fr": "Lancé avec Priya la migration de la facturation du T4 ; elle s'occupe de l'export des données.",
            "zh": "和Priya启动了第四季度的账单迁移，她负责数据导出。"}),
        ("priya-cutover", "W @Priya", {
            "en": "Leads the billing migration; the cutover is planned for Dec 9.",
            "de": "Leitet die Abrechnungsmigration; die Umstellung ist für den 9. Dezember geplant.",
            "es": "Dirige la migración de facturación; el cambio definitivo está previsto para el 9 de diciembre.",
            "fr": "Dirige la migration de la facturation ; la bascule est prévue le 9 décembre.",
            "zh": "负责账单迁移；正式切换定在12月9日。"}),
        ("tom-pottery", "W @Tom", {
            "en": "Started a pottery class; it meets every Thursday evening.",
            "de": "Hat einen Töpferkurs angefangen; der findet jeden Donnerstagabend statt.",
            "es": "Empezó un curso de cerámica; es todos los jueves por la tarde.",
            "fr": "A commencé un cours de poterie ; il a lieu tous les jeudis soir.",
            "zh": "报了一个陶艺班，每周四晚上上课。"}),
    ],
    "2025-11-05": [
        ("dentist-checkup", "", {
            "en": "Dentist check-up went fine; the next cleaning is in six months.",
            "de": "Die Kontrolle beim Zahnarzt war in Ordnung; die nächste Reinigung ist in sechs Monaten.",
            "es": "La revisión del dentista fue bien; la próxima limpieza es dentro de seis meses.",
            "fr": "Le contrôle chez le dentiste s'est bien passé ; le prochain détartrage est dans six mois.",
            "zh": "牙医检查一切正常，下次洗牙在六个月以后。"}),
        ("lena-call", "", {
            "en": "Lena called from Hamburg: she got the offer from Nordlicht.",
            "de": "Lena hat aus Hamburg angerufen: Sie hat das Angebot von Nordlicht bekommen.",
            "es": "Lena llamó desde Hamburgo: le han hecho la oferta de Nordlicht.",
            "fr": "Lena a appelé de Hambourg : elle a reçu l'offre de Nordlicht.",
            "zh": "Lena从汉堡打来电话：她拿到了Nordlicht的录用通知。"}),
        ("lena-job", "W @Lena", {
            "en": "Accepted a job at Nordlicht in Hamburg, starting on Jan 12.",
            "de": "Hat eine Stelle bei Nordlicht in Hamburg angenommen, Beginn am 12. Januar.",
            "es": "Aceptó un trabajo en Nordlicht en Hamburgo; empieza el 12 de enero.",
            "fr": "A accepté un poste chez Nordlicht à Hambourg, à partir du 12 janvier.",
            "zh": "接受了汉堡Nordlicht的工作，1月12日入职。"}),
    ],
    "2025-11-08": [
        ("hike", "", {
            "en": "Hiked the Malerweg with Tom, 18 km in the rain.",
            "de": "Mit Tom den Malerweg gewandert, 18 km im Regen.",
            "es": "Hicimos la ruta del Malerweg con Tom, 18 km bajo la lluvia.",
            "fr": "Randonnée sur le Malerweg avec Tom, 18 km sous la pluie.",
            "zh": "和Tom一起走了Malerweg徒步路线，冒雨走了18公里。"}),
        ("hike-fact", "B @Tom", {
            "en": "I hiked the Malerweg with Tom; his new boots gave him blisters.",
            "de": "Ich bin mit Tom den Malerweg gewandert; seine neuen Schuhe haben ihm Blasen gemacht.",
            "es": "Hice el Malerweg con Tom; sus botas nuevas le hicieron ampollas.",
            "fr": "J'ai fait le Malerweg avec Tom ; ses nouvelles chaussures lui ont fait des ampoules.",
            "zh": "我和Tom走了Malerweg，他的新鞋把脚磨出了水泡。"}),
    ],
    "2025-11-10": [
        ("agenda", "", {
            "en": "Priya sent the agenda: Dec 4 is the API deep-dive with the partner team.",
            "de": "Priya hat die Agenda geschickt: Am 4. Dezember ist der API-Deep-Dive mit dem Partnerteam.",
            "es": "Priya mandó la agenda: el 4 de diciembre es la sesión a fondo sobre la API con el equipo socio.",
            "fr": "Priya a envoyé l'ordre du jour : le 4 décembre, c'est la séance approfondie sur l'API avec l'équipe partenaire.",
            "zh": "Priya发来了议程：12月4日和合作团队做API深度研讨。"}),
        ("tom-oslo", "W @Tom", {
            "en": "Flies to Oslo on Nov 19 for the fjord conference and is back on the 23rd.",
            "de": "Fliegt am 19. November zur Fjord-Konferenz nach Oslo und ist am 23. zurück.",
            "es": "Vuela a Oslo el 19 de noviembre para la conferencia de los fiordos y vuelve el 23.",
            "fr": "S'envole pour Oslo le 19 novembre pour la conférence des fjords et rentre le 23.",
            "zh": "11月19日飞奥斯陆参加峡湾会议，23日回来。"}),
    ],
    "2025-11-12": [
        ("car-booked", "", {
            "en": "Booked the car service for Nov 20 at 8:00.",
            "de": "Den Werkstatttermin für das Auto am 20. November um 8:00 gebucht.",
            "es": "Reservé la revisión del coche para el 20 de noviembre a las 8:00.",
            "fr": "Réservé la révision de la voiture pour le 20 novembre à 8 h.",
            "zh": "预约了11月20日早上8点的汽车保养。"}),
        ("lena-visit", "", {
            "en": "Lena says she will visit us from Dec 5 to Dec 7.",
            "de": "Lena sagt, sie besucht uns vom 5. bis 7. Dezember.",
            "es": "Lena dice que vendrá a vernos del 5 al 7 de diciembre.",
            "fr": "Lena dit qu'elle viendra nous voir du 5 au 7 décembre.",
            "zh": "Lena说她12月5日到7日来看我们。"}),
        ("lena-stay", "W @Lena", {
            "en": "Staying with us Dec 5–7, arriving by train on the Friday evening.",
            "de": "Wohnt vom 5. bis 7. Dezember bei uns und kommt am Freitagabend mit dem Zug.",
            "es": "Se queda con nosotros del 5 al 7 de diciembre; llega en tren el viernes por la tarde.",
            "fr": "Loge chez nous du 5 au 7 décembre ; elle arrive en train le vendredi soir.",
            "zh": "12月5日至7日住我们家，周五晚上坐火车到。"}),
    ],
    "2025-11-14": [
        ("dinner", "", {
            "en": "Team dinner at the Vietnamese place; Priya gave a toast for the release.",
            "de": "Teamessen beim Vietnamesen; Priya hat einen Toast auf das Release ausgesprochen.",
            "es": "Cena de equipo en el vietnamita; Priya brindó por el lanzamiento.",
            "fr": "Dîner d'équipe au restaurant vietnamien ; Priya a porté un toast à la sortie de la version.",
            "zh": "团队在越南餐厅聚餐，Priya为新版本发布祝酒。"}),
        ("priya-opinion", "O(c=0.8) @Priya", {
            "en": "Thinks the old billing export should be retired before Christmas.",
            "de": "Findet, dass der alte Abrechnungsexport vor Weihnachten abgeschaltet werden sollte.",
            "es": "Cree que la antigua exportación de facturación debería retirarse antes de Navidad.",
            "fr": "Pense que l'ancien export de facturation devrait être arrêté avant Noël.",
            "zh": "认为旧的账单导出应该在圣诞节前停用。"}),
    ],
    "2025-11-16": [
        ("brunch", "", {
            "en": "Sunday brunch with Tom and his new flatmate; we talked about the Christmas market trip.",
            "de": "Sonntagsbrunch mit Tom und seinem neuen Mitbewohner; wir haben über den Ausflug zum Weihnachtsmarkt geredet.",
            "es": "Brunch de domingo con Tom y su nuevo compañero de piso; hablamos del viaje al mercado navideño.",
            "fr": "Brunch du dimanche avec Tom et son nouveau colocataire ; on a parlé de la sortie au marché de Noël.",
            "zh": "周日和Tom还有他的新室友吃早午餐，聊了去圣诞市场的行程。"}),
        ("tom-swim", "W @Tom", {
            "en": "Goes swimming every Sunday morning at the Stadtbad.",
            "de": "Geht jeden Sonntagmorgen im Stadtbad schwimmen.",
            "es": "Va a nadar todos los domingos por la mañana al Stadtbad.",
            "fr": "Va nager tous les dimanches matin au Stadtbad.",
            "zh": "每周日早上去Stadtbad游泳。"}),
    ],
    "2025-11-17": [
        ("dentist-moved", "", {
            "en": "The dentist moved my appointment from Nov 27 to Dec 2 at 9:30.",
            "de": "Die Zahnarztpraxis hat meinen Termin vom 27. November auf den 2. Dezember um 9:30 verschoben.",
            "es": "El dentista cambió mi cita del 27 de noviembre al 2 de diciembre a las 9:30.",
            "fr": "Le dentiste a déplacé mon rendez-vous du 27 novembre au 2 décembre à 9 h 30.",
            "zh": "牙医把我的预约从11月27日改到了12月2日9点半。"}),
    ],
    "2025-11-19": [
        ("tom-left", "", {
            "en": "Tom left for Oslo this morning.",
            "de": "Tom ist heute Morgen nach Oslo geflogen.",
            "es": "Tom se fue a Oslo esta mañana.",
            "fr": "Tom est parti pour Oslo ce matin.",
            "zh": "Tom今天早上出发去奥斯陆了。"}),
        ("dryrun-planned", "", {
            "en": "Reviewed Priya's migration plan; the dry run is next Tuesday.",
            "de": "Priyas Migrationsplan durchgesehen; der Probelauf ist nächsten Dienstag.",
            "es": "Revisé el plan de migración de Priya; el ensayo es el martes que viene.",
            "fr": "Relu le plan de migration de Priya ; la répétition est mardi prochain.",
            "zh": "看了Priya的迁移计划，演练定在下周二。"}),
    ],
    "2025-11-20": [
        ("car-done", "", {
            "en": "Car service done; the mechanic says the brakes need replacing in spring.",
            "de": "Auto aus der Werkstatt geholt; der Mechaniker sagt, die Bremsen müssen im Frühling neu.",
            "es": "Revisión del coche hecha; el mecánico dice que hay que cambiar los frenos en primavera.",
            "fr": "Révision de la voiture faite ; le garagiste dit qu'il faudra changer les freins au printemps.",
            "zh": "汽车保养做完了，师傅说刹车春天要换。"}),
    ],
    "2025-11-21": [
        ("tom-birthday", "W @Tom", {
            "en": "Turns 35 on Nov 28; the party is at his place at 19:00.",
            "de": "Wird am 28. November 35; die Feier ist um 19:00 bei ihm.",
            "es": "Cumple 35 años el 28 de noviembre; la fiesta es en su casa a las 19:00.",
            "fr": "Fête ses 35 ans le 28 novembre ; la soirée est chez lui à 19 h.",
            "zh": "11月28日满35岁，晚上7点在他家办生日聚会。"}),
    ],
    "2025-11-22": [
        ("flea", "", {
            "en": "Went to the flea market at the Mauerpark and bought an old lamp.",
            "de": "Auf dem Flohmarkt im Mauerpark gewesen und eine alte Lampe gekauft.",
            "es": "Fui al mercadillo del Mauerpark y compré una lámpara antigua.",
            "fr": "Allé au marché aux puces du Mauerpark et acheté une vieille lampe.",
            "zh": "去了Mauerpark的跳蚤市场，买了一盏旧台灯。"}),
        ("lena-photos", "W @Lena", {
            "en": "Sent photos of her new flat in Hamburg-Altona.",
            "de": "Hat Fotos ihrer neuen Wohnung in Hamburg-Altona geschickt.",
            "es": "Mandó fotos de su piso nuevo en Hamburgo-Altona.",
            "fr": "A envoyé des photos de son nouvel appartement à Hambourg-Altona.",
            "zh": "发来了她在汉堡阿尔托纳新公寓的照片。"}),
    ],
    "2025-11-23": [
        ("tom-back", "", {
            "en": "Tom is back from Oslo; he brought brown cheese.",
            "de": "Tom ist aus Oslo zurück; er hat Braunkäse mitgebracht.",
            "es": "Tom ha vuelto de Oslo; trajo queso marrón.",
            "fr": "Tom est rentré d'Oslo ; il a rapporté du fromage brun.",
            "zh": "Tom从奥斯陆回来了，带了棕色奶酪。"}),
        ("curry", "", {
            "en": "Cooked a lentil curry for the week.",
            "de": "Ein Linsencurry für die Woche gekocht.",
            "es": "Cociné un curry de lentejas para toda la semana.",
            "fr": "Cuisiné un curry de lentilles pour la semaine.",
            "zh": "做了一锅扁豆咖喱，够吃一周。"}),
    ],
    "2025-11-24": [
        ("priya-sick", "", {
            "en": "Priya is off sick, so the dry run moves to Thursday.",
            "de": "Priya ist krank, deshalb wird der Probelauf auf Donnerstag verschoben.",
            "es": "Priya está de baja, así que el ensayo pasa al jueves.",
            "fr": "Priya est malade, donc la répétition est décalée à jeudi.",
            "zh": "Priya病了，所以演练改到周四。"}),
        ("dryrun-moved", "W @Priya", {
            "en": "The migration dry run moved to Nov 27.",
            "de": "Der Probelauf der Migration wurde auf den 27. November verlegt.",
            "es": "El ensayo de la migración se ha movido al 27 de noviembre.",
            "fr": "La répétition de la migration a été déplacée au 27 novembre.",
            "zh": "迁移演练改到了11月27日。"}),
    ],
    "2025-11-25": [
        ("tickets", "", {
            "en": "Bought train tickets for the Christmas market in Dresden on Dec 13.",
            "de": "Zugtickets für den Weihnachtsmarkt in Dresden am 13. Dezember gekauft.",
            "es": "Compré los billetes de tren para el mercado navideño de Dresde del 13 de diciembre.",
            "fr": "Acheté les billets de train pour le marché de Noël de Dresde le 13 décembre.",
            "zh": "买了12月13日去德累斯顿圣诞市场的火车票。"}),
        ("tom-dresden", "W @Tom", {
            "en": "Joins the Dresden Christmas market trip on Dec 13.",
            "de": "Kommt am 13. Dezember mit auf den Ausflug zum Dresdner Weihnachtsmarkt.",
            "es": "Se apunta al viaje al mercado navideño de Dresde el 13 de diciembre.",
            "fr": "Vient à la sortie au marché de Noël de Dresde le 13 décembre.",
            "zh": "12月13日一起去德累斯顿圣诞市场。"}),
    ],
    "2025-11-26": [
        ("plan-next-week", "", {
            "en": "Planned next week: Monday the quarterly review, Tuesday the dentist, Thursday the API deep-dive.",
            "de": "Nächste Woche geplant: Montag das Quartalsreview, Dienstag Zahnarzt, Donnerstag der API-Deep-Dive.",
            "es": "Planifiqué la semana que viene: el lunes la revisión trimestral, el martes el dentista, el jueves la sesión sobre la API.",
            "fr": "Planifié la semaine prochaine : lundi la revue trimestrielle, mardi le dentiste, jeudi la séance sur l'API.",
            "zh": "安排了下周：周一季度评审，周二看牙医，周四API深度研讨。"}),
        ("priya-vacation", "W @Priya", {
            "en": "On vacation from Dec 15 to Dec 19.",
            "de": "Ist vom 15. bis 19. Dezember im Urlaub.",
            "es": "Está de vacaciones del 15 al 19 de diciembre.",
            "fr": "En vacances du 15 au 19 décembre.",
            "zh": "12月15日到19日休假。"}),
    ],
}

_NEXT_WEEK = ["plan-next-week", "dentist-moved", "agenda", "lena-visit", "lena-stay"]
_THIS_WEEK = ["priya-sick", "dryrun-moved", "tickets", "tom-dresden", "plan-next-week", "priya-vacation",
              "tom-birthday"]
# (id, {lang: question}, expected line ids)
QUESTIONS: list[tuple[str, dict[str, str], list[str]]] = [
    ("past-day", {"en": "What did I do on Nov 8?", "de": "Was habe ich am 8. November gemacht?",
                  "es": "¿Qué hice el 8 de noviembre?", "fr": "Qu'est-ce que j'ai fait le 8 novembre ?",
                  "zh": "我11月8日做了什么？"}, ["hike", "hike-fact"]),
    ("last-weekend", {"en": "What happened last weekend?", "de": "Was war letztes Wochenende los?",
                      "es": "¿Qué pasó el fin de semana pasado?", "fr": "Que s'est-il passé le week-end dernier ?",
                      "zh": "上周末发生了什么？"}, ["flea", "lena-photos", "tom-back", "curry"]),
    ("yesterday", {"en": "What did I do yesterday?", "de": "Was habe ich gestern gemacht?", "es": "¿Qué hice ayer?",
                   "fr": "Qu'est-ce que j'ai fait hier ?", "zh": "我昨天做了什么？"}, ["tickets", "tom-dresden"]),
    ("on-monday", {"en": "What happened on Monday?", "de": "Was ist am Montag passiert?", "es": "¿Qué pasó el lunes?",
                   "fr": "Que s'est-il passé lundi ?", "zh": "周一发生了什么？"}, ["priya-sick", "dryrun-moved"]),
    ("two-weeks-ago", {"en": "What did I do two weeks ago?", "de": "Was habe ich vor zwei Wochen gemacht?",
                       "es": "¿Qué hice hace dos semanas?", "fr": "Qu'est-ce que j'ai fait il y a deux semaines ?",
                       "zh": "两周前我做了什么？"},
     ["agenda", "tom-oslo", "car-booked", "lena-visit", "lena-stay", "dinner", "priya-opinion", "brunch", "tom-swim"]),
    ("when-oslo", {"en": "When did Tom fly to Oslo?", "de": "Wann ist Tom nach Oslo geflogen?",
                   "es": "¿Cuándo voló Tom a Oslo?", "fr": "Quand Tom est-il parti pour Oslo ?",
                   "zh": "Tom什么时候去的奥斯陆？"}, ["tom-left", "tom-oslo"]),
    ("around-20th", {"en": "Anything around the 20th?", "de": "Irgendwas um den 20. herum?",
                     "es": "¿Algo alrededor del 20?", "fr": "Quelque chose autour du 20 ?", "zh": "20号前后有什么事？"},
     ["car-done", "car-booked"]),
    ("last-sunday", {"en": "What did I cook last Sunday?", "de": "Was habe ich letzten Sonntag gekocht?",
                     "es": "¿Qué cociné el domingo pasado?", "fr": "Qu'est-ce que j'ai cuisiné dimanche dernier ?",
                     "zh": "上周日我做了什么菜？"}, ["curry"]),
    ("month-day", {"en": "What happened on November 14?", "de": "Was war am 14. November?",
                   "es": "¿Qué pasó el 14 de noviembre?", "fr": "Que s'est-il passé le 14 novembre ?",
                   "zh": "11月14日发生了什么？"}, ["dinner", "priya-opinion"]),
    ("moved-dry-run", {"en": "When is the migration dry run?", "de": "Wann ist der Probelauf der Migration?",
                       "es": "¿Cuándo es el ensayo de la migración?", "fr": "Quand a lieu la répétition de la migration ?",
                       "zh": "迁移演练是什么时候？"}, ["dryrun-moved", "priya-sick"]),
    ("whats-on-day", {"en": "What's on Dec 4?", "de": "Was steht am 4. Dezember an?", "es": "¿Qué hay el 4 de diciembre?",
                      "fr": "Qu'est-ce qu'il y a le 4 décembre ?", "zh": "12月4日有什么安排？"},
     ["agenda", "plan-next-week"]),
    ("moved-dentist", {"en": "When is my dentist appointment?", "de": "Wann ist mein Zahnarzttermin?",
                       "es": "¿Cuándo es mi cita con el dentista?",
                       "fr": "Quand est mon rendez-vous chez le dentiste ?", "zh": "我的牙医预约是什么时候？"},
     ["dentist-moved", "plan-next-week"]),
    ("next-week", {"en": "What's planned for next week?", "de": "Was ist für nächste Woche geplant?",
                   "es": "¿Qué hay planeado para la semana que viene?", "fr": "Qu'est-ce qui est prévu la semaine prochaine ?",
                   "zh": "下周有什么计划？"}, _NEXT_WEEK),
    ("next-weekend", {"en": "Who is visiting next weekend?", "de": "Wer kommt nächstes Wochenende zu Besuch?",
                      "es": "¿Quién viene de visita el próximo fin de semana?",
                      "fr": "Qui vient nous voir le week-end prochain ?", "zh": "下周末谁来拜访？"},
     ["lena-visit", "lena-stay"]),
    ("where-ahead", {"en": "Where will Tom be on Dec 13?", "de": "Wo ist Tom am 13. Dezember?",
                     "es": "¿Dónde estará Tom el 13 de diciembre?", "fr": "Où sera Tom le 13 décembre ?",
                     "zh": "12月13日Tom会在哪里？"}, ["tom-dresden", "tickets"]),
    ("next-tuesday", {"en": "What's on next Tuesday?", "de": "Was steht nächsten Dienstag an?",
                      "es": "¿Qué hay el próximo martes?", "fr": "Qu'est-ce qu'il y a mardi prochain ?",
                      "zh": "下周二有什么安排？"}, ["dentist-moved", "plan-next-week"]),
    ("tomorrow", {"en": "What's happening tomorrow?", "de": "Was passiert morgen?", "es": "¿Qué pasa mañana?",
                  "fr": "Qu'est-ce qui se passe demain ?", "zh": "明天有什么事？"}, ["dryrun-moved", "priya-sick"]),
    ("when-job", {"en": "When does Lena start her new job?", "de": "Wann fängt Lena mit ihrem neuen Job an?",
                  "es": "¿Cuándo empieza Lena su nuevo trabajo?", "fr": "Quand Lena commence-t-elle son nouveau travail ?",
                  "zh": "Lena什么时候开始新工作？"}, ["lena-job"]),
    ("planned-day", {"en": "Is anything planned for Dec 9?", "de": "Ist für den 9. Dezember etwas geplant?",
                     "es": "¿Hay algo planeado para el 9 de diciembre?",
                     "fr": "Y a-t-il quelque chose de prévu le 9 décembre ?", "zh": "12月9日有什么计划吗？"},
     ["priya-cutover"]),
    ("range-ahead", {"en": "Who is away between Dec 15 and Dec 19?", "de": "Wer ist vom 15. bis 19. Dezember weg?",
                     "es": "¿Quién no está del 15 al 19 de diciembre?", "fr": "Qui est absent du 15 au 19 décembre ?",
                     "zh": "12月15日到19日谁不在？"}, ["priya-vacation"]),
    ("ordinal-ahead", {"en": "What's on the 13th?", "de": "Was steht am 13. an?", "es": "¿Qué hay el 13?",
                       "fr": "Qu'est-ce qu'il y a le 13 ?", "zh": "13号有什么安排？"}, ["tom-dresden", "tickets"]),
    ("on-friday", {"en": "Whose birthday is on Friday?", "de": "Wer hat am Freitag Geburtstag?",
                   "es": "¿Quién cumple años el viernes?", "fr": "C'est l'anniversaire de qui vendredi ?",
                   "zh": "周五谁过生日？"}, ["tom-birthday"]),
    ("this-week", {"en": "What's going on this week?", "de": "Was ist diese Woche los?", "es": "¿Qué pasa esta semana?",
                   "fr": "Qu'est-ce qui se passe cette semaine ?", "zh": "这周有什么事？"}, _THIS_WEEK),
    ("range-past", {"en": "Where was Tom from Nov 19 to Nov 23?", "de": "Wo war Tom vom 19. bis 23. November?",
                    "es": "¿Dónde estuvo Tom del 19 al 23 de noviembre?", "fr": "Où était Tom du 19 au 23 novembre ?",
                    "zh": "11月19日到23日Tom在哪里？"}, ["tom-oslo", "tom-left", "tom-back"]),
    ("ordinal-past", {"en": "What happened on the 5th?", "de": "Was ist am 5. passiert?", "es": "¿Qué pasó el día 5?",
                      "fr": "Que s'est-il passé le 5 ?", "zh": "5号发生了什么？"},
     ["lena-call", "lena-job", "dentist-checkup"]),
    ("ordinal-month", {"en": "Anything on the 2nd of December?", "de": "Gibt es etwas am 2. Dezember?",
                       "es": "¿Hay algo el 2 de diciembre?", "fr": "Quelque chose le 2 décembre ?",
                       "zh": "12月2日有事吗？"}, ["dentist-moved", "plan-next-week"]),
    ("range-between", {"en": "What did I do between Nov 10 and Nov 12?",
                       "de": "Was habe ich zwischen dem 10. und 12. November gemacht?",
                       "es": "¿Qué hice entre el 10 y el 12 de noviembre?",
                       "fr": "Qu'est-ce que j'ai fait entre le 10 et le 12 novembre ?",
                       "zh": "11月10日到12日我做了什么？"},
     ["agenda", "tom-oslo", "car-booked", "lena-visit", "lena-stay"]),
    ("range-planned", {"en": "What's planned from Dec 5 to Dec 7?", "de": "Was ist vom 5. bis 7. Dezember geplant?",
                       "es": "¿Qué hay planeado del 5 al 7 de diciembre?",
                       "fr": "Qu'est-ce qui est prévu du 5 au 7 décembre ?", "zh": "12月5日到7日有什么计划？"},
     ["lena-visit", "lena-stay"]),
    ("habit", {"en": "What does Tom do on Sundays?", "de": "Was macht Tom sonntags?", "es": "¿Qué hace Tom los domingos?",
               "fr": "Que fait Tom le dimanche ?", "zh": "Tom每周日做什么？"}, ["tom-swim"]),
    ("three-weeks-ago", {"en": "What did I do three weeks ago?", "de": "Was habe ich vor drei Wochen gemacht?",
                         "es": "¿Qué hice hace tres semanas?", "fr": "Qu'est-ce que j'ai fait il y a trois semaines ?",
                         "zh": "三周前我做了什么？"},
     ["kickoff", "priya-cutover", "tom-pottery", "dentist-checkup", "lena-call", "lena-job", "hike", "hike-fact"]),
]


def write_workspace(root: Path, lang: str, languages: tuple[str, ...] | None) -> dict[str, tuple[str, int]]:
    """The notes of `lang` as daily logs under root; {line id: (path, line number)}."""
    where: dict[str, tuple[str, int]] = {}
    (root / "memory").mkdir(parents=True, exist_ok=True)
    (root / "MEMORY.md").write_text("# Core\n\n## Human\n- Lives in Berlin.\n", encoding="utf-8")
    if languages is not None:
        listed = ", ".join(f'"{code}"' for code in languages)
        (root / "memory.toml").write_text(f"[time]\nlanguages = [{listed}]\n", encoding="utf-8")
    for day, lines in NOTES.items():
        path = f"memory/{day}.md"
        out = [f"# {day}", ""]
        for section, facts in (("Notes", False), ("Retain", True)):
            chosen = [(lid, prefix, texts) for lid, prefix, texts in lines if bool(prefix) == facts]
            if not chosen:
                continue
            out += [f"## {section}"]
            for lid, prefix, texts in chosen:
                out.append(f"- {prefix}: {texts[lang]}" if prefix else f"- {texts[lang]}")
                where[lid] = (path, len(out))
            out.append("")
        (root / path).write_text("\n".join(out), encoding="utf-8")
    return where


def configured(lang: str, config: str) -> tuple[str, ...] | None:
    if config == "plain":
        return None
    return LANGS if lang == "en" else ("en", lang)


def run(lang: str, config: str, modes: list[str], workdir: Path, verbose: bool) -> dict[str, tuple[int, int]]:
    root = workdir / f"{lang}-{config}"
    where = write_workspace(root, lang, configured(lang, config))
    mem = Memory.open(str(root), now=NOW)
    mem.index()
    scores: dict[str, tuple[int, int]] = {}
    for mode in modes:
        at1 = at3 = 0
        for qid, texts, expected in QUESTIONS:
            try:
                out = mem.recall(RecallRequest(texts[lang], k=3, mode=mode))
            except ProviderUnavailable as exc:
                print(f"{lang} {mode}: {exc}", file=sys.stderr)
                break
            rank = hit_rank(out["results"], [where[e] for e in expected])
            at1 += rank == 1
            at3 += rank is not None
            if verbose and rank != 1:
                print(f"  [{lang} {config} {mode}] {rank or '-'} {qid}: {texts[lang]}  {out['notices']}")
                print_top(out["results"], n=len(out["results"]))
        scores[mode] = (at1, at3)
    mem.close()
    return scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--langs", default=",".join(LANGS))
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--configs", default="plain,languages")
    question_set_args(ap, "each miss at 1 with its top 3", "window.WINDOW_FLOOR=0.3")
    args = ap.parse_args()
    patch_constants(args.constants)
    n = len(QUESTIONS)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.workdir or tmp)
        for config in args.configs.split(","):
            for lang in args.langs.split(","):
                for mode, (at1, at3) in run(lang, config, args.modes.split(","), workdir, args.verbose).items():
                    print(f"{config:9} {lang} {mode:8} hit@1 {at1:2}/{n}  hit@3 {at3:2}/{n}", flush=True)


if __name__ == "__main__":
    main()
