"""The notes and questions of benchmarks/change.py: eight weeks of three people's notes, in four languages.

Jonas moves from Hamburg to Leipzig and from freelancing for Kranich to a staff job at Lindwurm Labs;
what we think of his estimates changes and changes back. Mara splits up with Tom and is promoted;
her view of the new office changes and changes back. Sam changes employer, the Atlas migration
pauses and resumes, the 4.2 release moves twice, Sam's view of Rust changes and changes back.
Beside them, facts that must *not* replace the older ones (a trip to Porto, a weekend in Munich,
a birthday, a commute).

Written before any change to the engine (issue 38), as one table: each entry has an id, the day
it was written, and its text per language; each question names the entries that answer it.
"""

from __future__ import annotations

LANGUAGES = ("en", "de", "es", "zh")
NOW = "2025-11-30T18:00"

# (id, day, {lang: Retain bullet})
ENTRIES: list[tuple[str, str, dict[str, str]]] = [
    ("j_home1", "2025-10-06", {
        "en": "W @Jonas: Lives in Hamburg-Altona in a shared flat with two musicians.",
        "de": "W @Jonas: Wohnt in Hamburg-Altona in einer WG mit zwei Musikern.",
        "es": "W @Jonas: Vive en Hamburgo-Altona en un piso compartido con dos músicos.",
        "zh": "W @Jonas: 住在汉堡阿尔托纳区，和两位音乐人合租一套公寓。"}),
    ("j_job1", "2025-10-06", {
        "en": "W @Jonas: Works as a backend freelancer for @Kranich on their billing API.",
        "de": "W @Jonas: Arbeitet als freiberuflicher Backend-Entwickler für @Kranich an deren Billing-API.",
        "es": "W @Jonas: Trabaja como freelance de backend para @Kranich en su API de facturación.",
        "zh": "W @Jonas: 作为自由职业的后端开发者为@Kranich做计费API。"}),
    ("s_job1", "2025-10-06", {
        "en": "W @Sam: Works as a backend developer at @Kessler-Logistics.",
        "de": "W @Sam: Arbeitet als Backend-Entwickler bei @Kessler-Logistics.",
        "es": "W @Sam: Trabaja como desarrollador backend en @Kessler-Logistics.",
        "zh": "W @Sam: 在@Kessler-Logistics做后端开发。"}),
    ("s_home1", "2025-10-06", {
        "en": "W @Sam: Lives in Berlin-Neukölln, close to the canal.",
        "de": "W @Sam: Wohnt in Berlin-Neukölln, nah am Kanal.",
        "es": "W @Sam: Vive en Berlín-Neukölln, cerca del canal.",
        "zh": "W @Sam: 住在柏林新克尔恩区，离运河很近。"}),
    ("m_rel1", "2025-10-07", {
        "en": "W @Mara: Is dating Tom, a carpenter from Kassel, since the summer.",
        "de": "W @Mara: Ist seit dem Sommer mit Tom zusammen, einem Schreiner aus Kassel.",
        "es": "W @Mara: Sale desde el verano con Tom, un carpintero de Kassel.",
        "zh": "W @Mara: 从夏天开始和Tom谈恋爱，他是卡塞尔的一名木匠。"}),
    ("m_role1", "2025-10-07", {
        "en": "W @Mara: Team lead of the mobile squad at @Kranich.",
        "de": "W @Mara: Teamleiterin des Mobile-Teams bei @Kranich.",
        "es": "W @Mara: Jefa del equipo móvil en @Kranich.",
        "zh": "W @Mara: 是@Kranich移动小组的组长。"}),
    ("m_home", "2025-10-07", {
        "en": "W @Mara: Lives in Bremen, in the Viertel.",
        "de": "W @Mara: Wohnt in Bremen, im Viertel.",
        "es": "W @Mara: Vive en Bremen, en el barrio del Viertel.",
        "zh": "W @Mara: 住在不来梅的Viertel街区。"}),
    ("j_est1", "2025-10-08", {
        "en": "O(c=0.6) @Jonas: His estimates are realistic; I can plan the sprint around them.",
        "de": "O(c=0.6) @Jonas: Seine Schätzungen sind realistisch; ich kann den Sprint danach planen.",
        "es": "O(c=0.6) @Jonas: Sus estimaciones son realistas; puedo planificar el sprint con ellas.",
        "zh": "O(c=0.6) @Jonas: 他的估算很现实，我可以据此安排冲刺。"}),
    ("m_office1", "2025-10-09", {
        "en": "O(c=0.7) @Mara: The new office on Hafenstraße is cramped.",
        "de": "O(c=0.7) @Mara: Das neue Büro in der Hafenstraße ist eng.",
        "es": "O(c=0.7) @Mara: La nueva oficina de la Hafenstraße es estrecha.",
        "zh": "O(c=0.7) @Mara: 港口街的新办公室很拥挤。"}),
    ("s_rust1", "2025-10-10", {
        "en": "O(c=0.6) @Sam: Rust is overhyped for our data pipelines.",
        "de": "O(c=0.6) @Sam: Rust ist für unsere Datenpipelines überbewertet.",
        "es": "O(c=0.6) @Sam: Rust está sobrevalorado para nuestros pipelines de datos.",
        "zh": "O(c=0.6) @Sam: Rust用在我们的数据管道上被高估了。"}),
    ("s_atlas1", "2025-10-13", {
        "en": "W @Atlas: The Atlas migration is in beta with three pilot customers.",
        "de": "W @Atlas: Die Atlas-Migration läuft in der Beta mit drei Pilotkunden.",
        "es": "W @Atlas: La migración Atlas está en beta con tres clientes piloto.",
        "zh": "W @Atlas: Atlas迁移处于测试阶段，有三个试点客户。"}),
    ("j_trip", "2025-10-15", {
        "en": "W @Jonas: In Porto (Oct 15–18) for his PyCon Portugal talk.",
        "de": "W @Jonas: Vom 15. bis 18. Oktober in Porto für seinen Vortrag auf der PyCon Portugal.",
        "es": "W @Jonas: En Oporto del 15 al 18 de octubre para su charla en la PyCon Portugal.",
        "zh": "W @Jonas: 10月15日至18日在波尔图，在PyCon Portugal做演讲。"}),
    ("s_release1", "2025-10-20", {
        "en": "W @Release-4.2: The 4.2 release is planned for Dec 3.",
        "de": "W @Release-4.2: Das Release 4.2 ist für den 3. Dezember geplant.",
        "es": "W @Release-4.2: La versión 4.2 está prevista para el 3 de diciembre.",
        "zh": "W @Release-4.2: 4.2版本计划在12月3日发布。"}),
    ("j_job2", "2025-10-27", {
        "en": "W @Jonas: Signed a full-time contract as staff engineer at @Lindwurm-Labs; "
              "the freelance work for Kranich ends in October.",
        "de": "W @Jonas: Hat einen Vollzeitvertrag als Staff Engineer bei @Lindwurm-Labs unterschrieben; "
              "die freie Arbeit für Kranich endet im Oktober.",
        "es": "W @Jonas: Firmó un contrato a tiempo completo como staff engineer en @Lindwurm-Labs; "
              "el trabajo freelance para Kranich termina en octubre.",
        "zh": "W @Jonas: 和@Lindwurm-Labs签了全职合同，担任主任工程师；给Kranich的自由职业工作10月结束。"}),
    ("m_rel2", "2025-11-03", {
        "en": "W @Mara: Split up with Tom; she is now seeing Lukas, a nurse.",
        "de": "W @Mara: Hat sich von Tom getrennt; sie ist jetzt mit Lukas zusammen, einem Krankenpfleger.",
        "es": "W @Mara: Rompió con Tom; ahora sale con Lukas, un enfermero.",
        "zh": "W @Mara: 和Tom分手了，现在和护士Lukas在一起。"}),
    ("s_job2", "2025-11-04", {
        "en": "W @Sam: Started as a platform engineer at @Fernwerk; left @Kessler-Logistics after six years.",
        "de": "W @Sam: Hat bei @Fernwerk als Plattform-Ingenieur angefangen und @Kessler-Logistics nach "
              "sechs Jahren verlassen.",
        "es": "W @Sam: Empezó como ingeniero de plataforma en @Fernwerk; dejó @Kessler-Logistics después de "
              "seis años.",
        "zh": "W @Sam: 在@Fernwerk入职，担任平台工程师；在@Kessler-Logistics工作六年后离职。"}),
    ("j_est2", "2025-11-05", {
        "en": "O(c=0.8) @Jonas: His estimates are too optimistic; the 'two-day' fix took five days.",
        "de": "O(c=0.8) @Jonas: Seine Schätzungen sind zu optimistisch; der Zwei-Tage-Fix hat fünf Tage gedauert.",
        "es": "O(c=0.8) @Jonas: Sus estimaciones son demasiado optimistas; el arreglo de dos días tardó cinco.",
        "zh": "O(c=0.8) @Jonas: 他的估算太乐观了，说两天的修复花了五天。"}),
    ("s_bike", "2025-11-05", {
        "en": "W @Sam: Commutes by bike to the Fernwerk office in Kreuzberg.",
        "de": "W @Sam: Fährt mit dem Rad ins Fernwerk-Büro in Kreuzberg.",
        "es": "W @Sam: Va en bicicleta a la oficina de Fernwerk en Kreuzberg.",
        "zh": "W @Sam: 骑自行车去Fernwerk在克罗伊茨贝格的办公室上班。"}),
    ("s_rust2", "2025-11-06", {
        "en": "O(c=0.8) @Sam: Rust is a good fit for backend services after all.",
        "de": "O(c=0.8) @Sam: Rust passt doch gut für Backend-Dienste.",
        "es": "O(c=0.8) @Sam: Al final Rust encaja bien para servicios backend.",
        "zh": "O(c=0.8) @Sam: Rust其实很适合做后端服务。"}),
    ("j_bday", "2025-11-10", {
        "en": "W @Jonas: His birthday is on January 12.",
        "de": "W @Jonas: Sein Geburtstag ist am 12. Januar.",
        "es": "W @Jonas: Su cumpleaños es el 12 de enero.",
        "zh": "W @Jonas: 他的生日是1月12日。"}),
    ("s_atlas2", "2025-11-11", {
        "en": "W @Atlas: The Atlas migration is paused until the new budget is approved.",
        "de": "W @Atlas: Die Atlas-Migration ist gestoppt, bis das neue Budget freigegeben ist.",
        "es": "W @Atlas: La migración Atlas está en pausa hasta que aprueben el nuevo presupuesto.",
        "zh": "W @Atlas: Atlas迁移已暂停，等待新预算批准。"}),
    ("m_role2", "2025-11-12", {
        "en": "W @Mara: Promoted to head of product at @Kranich.",
        "de": "W @Mara: Wurde bei @Kranich zur Produktchefin befördert.",
        "es": "W @Mara: La ascendieron a directora de producto en @Kranich.",
        "zh": "W @Mara: 在@Kranich升任产品负责人。"}),
    ("m_office2", "2025-11-14", {
        "en": "O(c=0.8) @Mara: The new office feels spacious after the rearrangement.",
        "de": "O(c=0.8) @Mara: Das neue Büro wirkt nach dem Umräumen geräumig.",
        "es": "O(c=0.8) @Mara: La nueva oficina parece amplia después de reorganizarla.",
        "zh": "O(c=0.8) @Mara: 重新布置以后，新办公室显得很宽敞。"}),
    ("s_release2", "2025-11-18", {
        "en": "W @Release-4.2: The 4.2 release moved to Dec 8 because QA found a data-loss bug.",
        "de": "W @Release-4.2: Das Release 4.2 wurde auf den 8. Dezember verschoben, weil die QA einen "
              "Datenverlust-Bug gefunden hat.",
        "es": "W @Release-4.2: La versión 4.2 se aplazó al 8 de diciembre porque QA encontró un error de "
              "pérdida de datos.",
        "zh": "W @Release-4.2: 4.2版本推迟到12月8日发布，因为测试发现了数据丢失的问题。"}),
    ("m_visit", "2025-11-20", {
        "en": "W @Mara: Visited her sister in Munich for the weekend.",
        "de": "W @Mara: War am Wochenende bei ihrer Schwester in München.",
        "es": "W @Mara: Visitó a su hermana en Múnich el fin de semana.",
        "zh": "W @Mara: 周末去慕尼黑看望了她的姐姐。"}),
    ("s_rust3", "2025-11-21", {
        "en": "O(c=0.7) @Sam: Rust is overhyped after all; the compile times are killing us.",
        "de": "O(c=0.7) @Sam: Rust ist doch überbewertet; die Kompilierzeiten bringen uns um.",
        "es": "O(c=0.7) @Sam: Rust está sobrevalorado después de todo; los tiempos de compilación nos matan.",
        "zh": "O(c=0.7) @Sam: Rust还是被高估了，编译时间太长要命。"}),
    ("s_atlas3", "2025-11-24", {
        "en": "W @Atlas: The Atlas migration is back on; the budget was approved and the rollout starts Dec 1.",
        "de": "W @Atlas: Die Atlas-Migration läuft wieder; das Budget ist freigegeben, der Rollout beginnt am "
              "1. Dezember.",
        "es": "W @Atlas: La migración Atlas se reanuda; aprobaron el presupuesto y el despliegue empieza el "
              "1 de diciembre.",
        "zh": "W @Atlas: Atlas迁移恢复了，预算已批准，12月1日开始上线。"}),
    ("j_home2", "2025-11-25", {
        "en": "W @Jonas: Moved from Hamburg to Leipzig (Plagwitz); works from the Basislager coworking.",
        "de": "W @Jonas: Ist von Hamburg nach Leipzig-Plagwitz umgezogen; arbeitet im Coworking Basislager.",
        "es": "W @Jonas: Se mudó de Hamburgo a Leipzig (Plagwitz); trabaja desde el coworking Basislager.",
        "zh": "W @Jonas: 已经从汉堡搬到莱比锡普拉格维茨，在Basislager联合办公空间工作。"}),
    ("j_est3", "2025-11-26", {
        "en": "O(c=0.7) @Jonas: His estimates are realistic again; the Lindwurm sprint landed on time.",
        "de": "O(c=0.7) @Jonas: Seine Schätzungen sind wieder realistisch; der Lindwurm-Sprint war pünktlich fertig.",
        "es": "O(c=0.7) @Jonas: Sus estimaciones vuelven a ser realistas; el sprint de Lindwurm terminó a tiempo.",
        "zh": "O(c=0.7) @Jonas: 他的估算又很现实了，Lindwurm的冲刺按时完成。"}),
    ("m_office3", "2025-11-27", {
        "en": "O(c=0.7) @Mara: The new office is cramped again since the sales team moved in.",
        "de": "O(c=0.7) @Mara: Das neue Büro ist wieder eng, seit das Vertriebsteam eingezogen ist.",
        "es": "O(c=0.7) @Mara: La nueva oficina vuelve a ser estrecha desde que llegó el equipo de ventas.",
        "zh": "O(c=0.7) @Mara: 销售团队搬进来以后，新办公室又很拥挤了。"}),
    ("s_release3", "2025-11-28", {
        "en": "W @Release-4.2: The 4.2 release moved again, to Dec 10.",
        "de": "W @Release-4.2: Das Release 4.2 wurde noch einmal verschoben, auf den 10. Dezember.",
        "es": "W @Release-4.2: La versión 4.2 se aplazó otra vez, al 10 de diciembre.",
        "zh": "W @Release-4.2: 4.2版本再次推迟，改到12月10日。"}),
]

# A narrative line or two per week, as people write them (not Retain facts; never an answer).
NOTES: dict[str, dict[str, str]] = {
    "2025-10-06": {"en": "Kick-off for the billing work with Jonas and Mara.",
                   "de": "Kick-off für die Billing-Arbeit mit Jonas und Mara.",
                   "es": "Arranque del trabajo de facturación con Jonas y Mara.",
                   "zh": "和Jonas、Mara一起启动计费项目。"},
    "2025-10-20": {"en": "Long call with Sam about the release plan and the Atlas pilots.",
                   "de": "Langes Telefonat mit Sam über den Release-Plan und die Atlas-Piloten.",
                   "es": "Llamada larga con Sam sobre el plan de versiones y los pilotos de Atlas.",
                   "zh": "和Sam长时间通话，讨论发布计划和Atlas试点。"},
    "2025-11-11": {"en": "Budget meeting ran over; nobody decided anything about Atlas.",
                   "de": "Das Budget-Meeting hat überzogen; zu Atlas wurde nichts entschieden.",
                   "es": "La reunión de presupuesto se alargó; nadie decidió nada sobre Atlas.",
                   "zh": "预算会议超时了，关于Atlas什么也没决定。"},
    "2025-11-25": {"en": "Jonas sent photos of the new flat; boxes everywhere.",
                   "de": "Jonas hat Fotos der neuen Wohnung geschickt; überall Kisten.",
                   "es": "Jonas mandó fotos del piso nuevo; cajas por todas partes.",
                   "zh": "Jonas发来了新公寓的照片，到处都是箱子。"},
}

# (id, {lang: question}, expected entry ids, "now" | "then")
QUESTIONS: list[tuple[str, dict[str, str], tuple[str, ...], str]] = [
    ("q01", {"en": "Where does Jonas live now?", "de": "Wo wohnt Jonas jetzt?", "es": "¿Dónde vive Jonas ahora?",
             "zh": "Jonas现在住在哪里？"}, ("j_home2",), "now"),
    ("q02", {"en": "Where does Jonas live?", "de": "Wo wohnt Jonas?", "es": "¿Dónde vive Jonas?",
             "zh": "Jonas住在哪里？"}, ("j_home2",), "now"),
    ("q03", {"en": "Who does Jonas work for?", "de": "Für wen arbeitet Jonas?", "es": "¿Para quién trabaja Jonas?",
             "zh": "Jonas在为谁工作？"}, ("j_job2",), "now"),
    ("q04", {"en": "What is Jonas's job now?", "de": "Was ist Jonas' Job jetzt?", "es": "¿Cuál es el trabajo de Jonas ahora?",
             "zh": "Jonas现在做什么工作？"}, ("j_job2",), "now"),
    ("q05", {"en": "What do we think of Jonas's estimates now?", "de": "Was halten wir jetzt von Jonas' Schätzungen?",
             "es": "¿Qué opinamos ahora de las estimaciones de Jonas?", "zh": "我们现在怎么看Jonas的估算？"},
     ("j_est3",), "now"),
    ("q06", {"en": "Are Jonas's estimates realistic?", "de": "Sind Jonas' Schätzungen realistisch?",
             "es": "¿Son realistas las estimaciones de Jonas?", "zh": "Jonas的估算现实吗？"}, ("j_est3",), "now"),
    ("q07", {"en": "Who is Mara dating?", "de": "Mit wem ist Mara zusammen?", "es": "¿Con quién sale Mara?",
             "zh": "Mara在和谁谈恋爱？"}, ("m_rel2",), "now"),
    ("q08", {"en": "Is Mara still with Tom?", "de": "Ist Mara noch mit Tom zusammen?", "es": "¿Mara sigue con Tom?",
             "zh": "Mara还和Tom在一起吗？"}, ("m_rel2",), "now"),
    ("q09", {"en": "What is Mara's role at Kranich?", "de": "Welche Rolle hat Mara bei Kranich?",
             "es": "¿Qué puesto tiene Mara en Kranich?", "zh": "Mara在Kranich担任什么职位？"}, ("m_role2",), "now"),
    ("q10", {"en": "What is Mara's job title now?", "de": "Was ist Maras Jobtitel jetzt?",
             "es": "¿Cuál es el cargo de Mara ahora?", "zh": "Mara现在的职位是什么？"}, ("m_role2",), "now"),
    ("q11", {"en": "What does Mara think of the new office?", "de": "Was hält Mara vom neuen Büro?",
             "es": "¿Qué piensa Mara de la nueva oficina?", "zh": "Mara觉得新办公室怎么样？"}, ("m_office3",), "now"),
    ("q12", {"en": "Where does Mara live?", "de": "Wo wohnt Mara?", "es": "¿Dónde vive Mara?", "zh": "Mara住在哪里？"},
     ("m_home",), "now"),
    ("q13", {"en": "Where does Sam work?", "de": "Wo arbeitet Sam?", "es": "¿Dónde trabaja Sam?", "zh": "Sam在哪里工作？"},
     ("s_job2",), "now"),
    ("q14", {"en": "What is Sam's job now?", "de": "Was ist Sams Job jetzt?", "es": "¿Cuál es el trabajo de Sam ahora?",
             "zh": "Sam现在做什么工作？"}, ("s_job2",), "now"),
    ("q15", {"en": "Where does Sam live?", "de": "Wo wohnt Sam?", "es": "¿Dónde vive Sam?", "zh": "Sam住在哪里？"},
     ("s_home1",), "now"),
    ("q16", {"en": "What does Sam think of Rust now?", "de": "Was hält Sam jetzt von Rust?",
             "es": "¿Qué piensa Sam ahora de Rust?", "zh": "Sam现在怎么看Rust？"}, ("s_rust3",), "now"),
    ("q17", {"en": "What is the status of the Atlas migration?", "de": "Wie ist der Stand der Atlas-Migration?",
             "es": "¿Cuál es el estado de la migración Atlas?", "zh": "Atlas迁移现在是什么状态？"}, ("s_atlas3",), "now"),
    ("q18", {"en": "Is the Atlas migration paused?", "de": "Ist die Atlas-Migration gestoppt?",
             "es": "¿Está en pausa la migración Atlas?", "zh": "Atlas迁移暂停了吗？"}, ("s_atlas3",), "now"),
    ("q19", {"en": "When is the 4.2 release?", "de": "Wann ist das Release 4.2?", "es": "¿Cuándo sale la versión 4.2?",
             "zh": "4.2版本什么时候发布？"}, ("s_release3",), "now"),
    ("q20", {"en": "When does the 4.2 release ship now?", "de": "Wann erscheint das Release 4.2 jetzt?",
             "es": "¿Cuándo se publica ahora la versión 4.2?", "zh": "4.2版本现在定在哪天发布？"}, ("s_release3",), "now"),
    ("q21", {"en": "Does Sam still work at Kessler?", "de": "Arbeitet Sam noch bei Kessler?",
             "es": "¿Sam sigue trabajando en Kessler?", "zh": "Sam还在Kessler工作吗？"}, ("s_job2",), "now"),
    ("q22", {"en": "How does Sam get to work?", "de": "Wie kommt Sam zur Arbeit?", "es": "¿Cómo va Sam al trabajo?",
             "zh": "Sam怎么去上班？"}, ("s_bike",), "now"),
    ("q23", {"en": "When is Jonas's birthday?", "de": "Wann hat Jonas Geburtstag?", "es": "¿Cuándo es el cumpleaños de Jonas?",
             "zh": "Jonas的生日是哪天？"}, ("j_bday",), "now"),
    ("q24", {"en": "Which coworking does Jonas use?", "de": "Welches Coworking nutzt Jonas?",
             "es": "¿Qué coworking usa Jonas?", "zh": "Jonas在哪个联合办公空间工作？"}, ("j_home2",), "now"),
    ("q25", {"en": "Who is Mara's partner now?", "de": "Wer ist jetzt Maras Partner?", "es": "¿Quién es ahora la pareja de Mara?",
             "zh": "Mara现在的伴侣是谁？"}, ("m_rel2",), "now"),
    ("q26", {"en": "Where did Jonas live in October?", "de": "Wo hat Jonas im Oktober gewohnt?",
             "es": "¿Dónde vivía Jonas en octubre?", "zh": "Jonas十月份住在哪里？"}, ("j_home1",), "then"),
    ("q27", {"en": "Who did Jonas work for before Lindwurm Labs?", "de": "Für wen hat Jonas vor Lindwurm Labs gearbeitet?",
             "es": "¿Para quién trabajaba Jonas antes de Lindwurm Labs?", "zh": "Jonas在Lindwurm Labs之前为谁工作？"},
     ("j_job1", "j_job2"), "then"),
    ("q28", {"en": "What did we think of Jonas's estimates in early November?",
             "de": "Was hielten wir Anfang November von Jonas' Schätzungen?",
             "es": "¿Qué opinábamos de las estimaciones de Jonas a principios de noviembre?",
             "zh": "十一月初我们怎么看Jonas的估算？"}, ("j_est2",), "then"),
    ("q29", {"en": "Where was Jonas in mid-October?", "de": "Wo war Jonas Mitte Oktober?",
             "es": "¿Dónde estaba Jonas a mediados de octubre?", "zh": "Jonas十月中旬在哪里？"}, ("j_trip",), "then"),
    ("q30", {"en": "Who was Mara dating in October?", "de": "Mit wem war Mara im Oktober zusammen?",
             "es": "¿Con quién salía Mara en octubre?", "zh": "Mara十月份在和谁谈恋爱？"}, ("m_rel1",), "then"),
    ("q31", {"en": "What was Mara's role before her promotion?", "de": "Welche Rolle hatte Mara vor ihrer Beförderung?",
             "es": "¿Qué puesto tenía Mara antes del ascenso?", "zh": "Mara升职之前是什么职位？"}, ("m_role1",), "then"),
    ("q32", {"en": "What did Mara think of the office in mid-November?",
             "de": "Was hielt Mara Mitte November vom Büro?",
             "es": "¿Qué pensaba Mara de la oficina a mediados de noviembre?", "zh": "十一月中旬Mara觉得办公室怎么样？"},
     ("m_office2",), "then"),
    ("q33", {"en": "Where did Mara go for the weekend in November?", "de": "Wohin ist Mara im November übers Wochenende gefahren?",
             "es": "¿Adónde fue Mara el fin de semana en noviembre?", "zh": "Mara十一月的周末去了哪里？"},
     ("m_visit",), "then"),
    ("q34", {"en": "Where did Sam work in October?", "de": "Wo hat Sam im Oktober gearbeitet?",
             "es": "¿Dónde trabajaba Sam en octubre?", "zh": "Sam十月份在哪里工作？"}, ("s_job1",), "then"),
    ("q35", {"en": "What did Sam think of Rust in October?", "de": "Was hielt Sam im Oktober von Rust?",
             "es": "¿Qué pensaba Sam de Rust en octubre?", "zh": "Sam十月份怎么看Rust？"}, ("s_rust1",), "then"),
    ("q36", {"en": "When was the 4.2 release originally planned?", "de": "Wann war das Release 4.2 ursprünglich geplant?",
             "es": "¿Cuándo estaba prevista originalmente la versión 4.2?", "zh": "4.2版本最初计划什么时候发布？"},
     ("s_release1",), "then"),
    ("q37", {"en": "What was the status of the Atlas migration in October?",
             "de": "Wie war der Stand der Atlas-Migration im Oktober?",
             "es": "¿Cuál era el estado de la migración Atlas en octubre?", "zh": "十月份Atlas迁移是什么状态？"},
     ("s_atlas1",), "then"),
    ("q38", {"en": "Which date was the 4.2 release moved to first?", "de": "Auf welches Datum wurde das Release 4.2 zuerst verschoben?",
             "es": "¿A qué fecha se aplazó primero la versión 4.2?", "zh": "4.2版本第一次推迟到了哪天？"},
     ("s_release2",), "then"),
    ("q39", {"en": "Why was the Atlas migration paused?", "de": "Warum wurde die Atlas-Migration gestoppt?",
             "es": "¿Por qué se pausó la migración Atlas?", "zh": "Atlas迁移为什么暂停了？"}, ("s_atlas2",), "then"),
    ("q40", {"en": "Why did the 4.2 release move to Dec 8?", "de": "Warum wurde das Release 4.2 auf den 8. Dezember verschoben?",
             "es": "¿Por qué se aplazó la versión 4.2 al 8 de diciembre?", "zh": "4.2版本为什么推迟到12月8日？"},
     ("s_release2",), "then"),
]
