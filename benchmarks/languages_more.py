"""The parallel workspace of benchmarks/languages.py in Italian, Dutch, Russian and Korean.

Written on 2026-12-06 before any change to the engine for these languages (issue 40, third pass):
the same notes and the same 24 questions as languages_notes.py / languages_questions.py, line for
line, as a native writer would put them (dates as each language writes them: "3 dicembre",
"3 december", "3 декабря", "12월 3일"; names and @slugs as typed in the other languages, cities in
the language's own spelling). Keyed by the English text, so languages_notes.py and
languages_questions.py extend their tuples from here.

COMING: eight questions about the coming days and about change (a move, a new job, a changed
opinion), asked in English and in each of these four languages, with their expected sources.
"""

from __future__ import annotations

MORE_LANGS = ("it", "nl", "ru", "ko")
MORE_HEADINGS = ("## Note", "## Notities", "## Заметки", "## 메모")

# English line -> (it, nl, ru, ko)
LINES = {
    "- I am Kim, a product manager in Berlin.": (
        "- Sono Kim, product manager a Berlino.",
        "- Ik ben Kim, productmanager in Berlijn.",
        "- Я Kim, продакт-менеджер в Берлине.",
        "- 나는 Kim, 베를린에서 프로덕트 매니저로 일한다."),
    "- Monday: kickoff for the billing migration; Tom leads it while Lea is on parental leave.": (
        "- Lunedì: kickoff della migrazione della fatturazione; la guida Tom mentre Lea è in congedo parentale.",
        "- Maandag: kick-off van de migratie van de facturatie; Tom leidt die zolang Lea met ouderschapsverlof is.",
        "- Понедельник: старт миграции биллинга; ею руководит Tom, пока Lea в отпуске по уходу за ребёнком.",
        "- 월요일: 결제 시스템 마이그레이션 킥오프. Lea가 육아휴직 중인 동안 Tom이 맡는다."),
    "- Decision: we keep Postgres for the invoice queue.": (
        "- Decisione: teniamo Postgres per la coda delle fatture.",
        "- Besluit: we houden Postgres voor de factuurwachtrij.",
        "- Решение: оставляем Postgres для очереди счетов.",
        "- 결정: 청구서 큐에는 계속 Postgres를 쓴다."),
    "- Lunch with Priya; she is tired of her long commute to the old office.": (
        "- Pranzo con Priya; è stanca del lungo tragitto fino al vecchio ufficio.",
        "- Lunch met Priya; ze is haar lange woon-werkreis naar het oude kantoor zat.",
        "- Обед с Priya; она устала от долгой дороги в старый офис.",
        "- Priya와 점심. 예전 사무실까지 먼 출퇴근길에 지쳤다고 한다."),
    "- W @Tom: Covers for @Lea as team lead until February.": (
        "- W @Tom: Sostituisce @Lea come responsabile del team fino a febbraio.",
        "- W @Tom: Vervangt @Lea als teamleider tot februari.",
        "- W @Tom: Замещает @Lea на посту тимлида до февраля.",
        "- W @Tom: 2월까지 @Lea 대신 팀장을 맡는다."),
    "- W @Priya: Works as a backend developer at @Nordbank.": (
        "- W @Priya: Lavora come sviluppatrice backend presso @Nordbank.",
        "- W @Priya: Werkt als backendontwikkelaar bij @Nordbank.",
        "- W @Priya: Работает бэкенд-разработчицей в @Nordbank.",
        "- W @Priya: @Nordbank에서 백엔드 개발자로 일한다."),
    "- O(c=0.7) @Peter: Prefers trains over planes for trips under six hours.": (
        "- O(c=0.7) @Peter: Preferisce il treno all'aereo per i viaggi sotto le sei ore.",
        "- O(c=0.7) @Peter: Neemt liever de trein dan het vliegtuig voor reizen korter dan zes uur.",
        "- O(c=0.7) @Peter: Для поездок короче шести часов предпочитает поезд самолёту.",
        "- O(c=0.7) @Peter: 6시간 이내 이동이면 비행기보다 기차를 선호한다."),
    "- The staging server ran out of disk space again; error code E4012 in the upload service.": (
        "- Il server di staging ha di nuovo finito lo spazio su disco; codice di errore E4012 nel servizio di "
        "upload.",
        "- De stagingserver had weer geen schijfruimte meer; foutcode E4012 in de uploadservice.",
        "- На staging-сервере снова закончилось место на диске; код ошибки E4012 в сервисе загрузки.",
        "- 스테이징 서버 디스크 공간이 또 부족했다. 업로드 서비스에서 오류 코드 E4012."),
    "- Peter called: he is looking at flats in Munich because of a new job offer.": (
        "- Ha chiamato Peter: sta guardando appartamenti a Monaco per una nuova offerta di lavoro.",
        "- Peter belde: hij kijkt naar appartementen in München vanwege een nieuw baanaanbod.",
        "- Звонил Peter: из-за нового предложения о работе смотрит квартиры в Мюнхене.",
        "- Peter가 전화했다. 새 일자리 제안 때문에 뮌헨에서 집을 보고 있다."),
    "- W @Peter: Lives in Vienna with his dog Bruno.": (
        "- W @Peter: Vive a Vienna con il suo cane Bruno.",
        "- W @Peter: Woont in Wenen met zijn hond Bruno.",
        "- W @Peter: Живёт в Вене со своей собакой Bruno.",
        "- W @Peter: 강아지 Bruno와 함께 빈에 산다."),
    "- B @Peter: I promised to send Peter the moving checklist.": (
        "- B @Peter: Ho promesso di mandare a Peter la checklist per il trasloco.",
        "- B @Peter: Ik heb beloofd Peter de verhuischecklist te sturen.",
        "- B @Peter: Я пообещала отправить Peter чек-лист для переезда.",
        "- B @Peter: Peter에게 이사 체크리스트를 보내 주기로 약속했다."),
    "- Climbing with Mara in the evening; the only thing that clears her head after work.": (
        "- Arrampicata con Mara la sera; l'unica cosa che le svuota la testa dopo il lavoro.",
        "- 's Avonds klimmen met Mara; het enige dat na het werk haar hoofd leegmaakt.",
        "- Вечером скалолазание с Mara; единственное, что помогает ей разгрузить голову после работы.",
        "- 저녁에 Mara와 클라이밍. 퇴근 후 머리를 비울 수 있는 유일한 일이다."),
    "- Priya had a second interview at Fernwerk, a solar energy startup in Hamburg.": (
        "- Priya ha fatto un secondo colloquio da Fernwerk, una startup di energia solare ad Amburgo.",
        "- Priya had een tweede sollicitatiegesprek bij Fernwerk, een zonne-energiestartup in Hamburg.",
        "- У Priya было второе собеседование в Fernwerk, стартапе солнечной энергетики в Гамбурге.",
        "- Priya가 Fernwerk에서 2차 면접을 봤다. 함부르크의 태양광 에너지 스타트업이다."),
    "- O(c=0.6) @Mara: Thinks the new climbing gym is too crowded on weekends.": (
        "- O(c=0.6) @Mara: Pensa che la nuova palestra di arrampicata sia troppo affollata nel fine settimana.",
        "- O(c=0.6) @Mara: Vindt de nieuwe klimhal in het weekend te druk.",
        "- O(c=0.6) @Mara: Считает, что в новом скалодроме по выходным слишком много народу.",
        "- O(c=0.6) @Mara: 새 클라이밍장이 주말에는 너무 붐빈다고 생각한다."),
    "- W @Fernwerk: A solar energy startup in Hamburg with about forty employees.": (
        "- W @Fernwerk: Una startup di energia solare ad Amburgo con circa quaranta dipendenti.",
        "- W @Fernwerk: Een zonne-energiestartup in Hamburg met zo'n veertig medewerkers.",
        "- W @Fernwerk: Стартап солнечной энергетики в Гамбурге, около сорока сотрудников.",
        "- W @Fernwerk: 직원 40명 정도의 함부르크 태양광 에너지 스타트업."),
    "- Dentist appointment moved to December 3 at 9:30.": (
        "- Appuntamento dal dentista spostato al 3 dicembre alle 9:30.",
        "- Tandartsafspraak verzet naar 3 december om 9:30.",
        "- Приём у стоматолога перенесли на 3 декабря, 9:30.",
        "- 치과 예약을 12월 3일 9시 30분으로 옮겼다."),
    "- Checked the config key billing.retry_limit; it is set to 5 in production.": (
        "- Controllata la chiave di configurazione billing.retry_limit; in produzione vale 5.",
        "- Configuratiesleutel billing.retry_limit gecontroleerd; in productie staat die op 5.",
        "- Проверила ключ конфигурации billing.retry_limit; в продакшене стоит 5.",
        "- 설정 키 billing.retry_limit을 확인했다. 운영 환경에서는 5로 되어 있다."),
    "- W @Peter: Accepted the job at @Siemens in Munich; starts on January 8.": (
        "- W @Peter: Ha accettato il lavoro da @Siemens a Monaco; inizia l'8 gennaio.",
        "- W @Peter: Heeft de baan bij @Siemens in München aangenomen; begint op 8 januari.",
        "- W @Peter: Принял предложение @Siemens в Мюнхене; выходит на работу 8 января.",
        "- W @Peter: 뮌헨 @Siemens의 일자리를 수락했다. 1월 8일부터 출근한다."),
    "- O(c=0.8) @Priya: Dislikes open-plan offices; prefers working from home on Fridays.": (
        "- O(c=0.8) @Priya: Non le piacciono gli open space; il venerdì preferisce lavorare da casa.",
        "- O(c=0.8) @Priya: Houdt niet van kantoortuinen; werkt op vrijdag liever thuis.",
        "- O(c=0.8) @Priya: Не любит опенспейсы; по пятницам предпочитает работать из дома.",
        "- O(c=0.8) @Priya: 개방형 사무실을 싫어한다. 금요일에는 재택근무를 선호한다."),
    "- Team retro: the deployment pipeline takes forty minutes, far too long.": (
        "- Retro del team: la pipeline di deploy richiede quaranta minuti, decisamente troppo.",
        "- Teamretro: de deploymentpipeline duurt veertig minuten, veel te lang.",
        "- Ретро команды: пайплайн деплоя идёт сорок минут, это слишком долго.",
        "- 팀 회고: 배포 파이프라인이 40분이나 걸린다. 너무 길다."),
    "- Tom suggested splitting the test suite into four parallel jobs.": (
        "- Tom ha proposto di dividere la suite di test in quattro job paralleli.",
        "- Tom stelde voor de testsuite in vier parallelle jobs op te splitsen.",
        "- Tom предложил разбить набор тестов на четыре параллельные задачи.",
        "- Tom이 테스트 스위트를 병렬 작업 4개로 나누자고 제안했다."),
    "- W @Priya: Signed the contract with @Fernwerk; starts on January 2.": (
        "- W @Priya: Ha firmato il contratto con @Fernwerk; inizia il 2 gennaio.",
        "- W @Priya: Heeft het contract met @Fernwerk getekend; begint op 2 januari.",
        "- W @Priya: Подписала контракт с @Fernwerk; выходит на работу 2 января.",
        "- W @Priya: @Fernwerk와 계약했다. 1월 2일부터 근무한다."),
    "- O(c=0.9) @Tom: Believes code reviews should happen within one day.": (
        "- O(c=0.9) @Tom: È convinto che le code review vadano fatte entro un giorno.",
        "- O(c=0.9) @Tom: Vindt dat codereviews binnen een dag moeten gebeuren.",
        "- O(c=0.9) @Tom: Считает, что код-ревью должно проходить в течение одного дня.",
        "- O(c=0.9) @Tom: 코드 리뷰는 하루 안에 끝내야 한다고 생각한다."),
    "- Peter found a flat in Munich-Schwabing, two rooms with a balcony.": (
        "- Peter ha trovato un appartamento a Monaco-Schwabing, due locali con balcone.",
        "- Peter heeft een appartement gevonden in München-Schwabing, twee kamers met balkon.",
        "- Peter нашёл в Мюнхене квартиру в районе Schwabing: две комнаты с балконом.",
        "- Peter가 뮌헨 Schwabing에서 발코니 딸린 방 두 개짜리 집을 구했다."),
    "- The invoice export failed with error code E4012 again; the disk was full.": (
        "- L'esportazione delle fatture è di nuovo fallita con il codice di errore E4012; il disco era pieno.",
        "- De factuurexport is weer mislukt met foutcode E4012; de schijf was vol.",
        "- Экспорт счетов снова упал с кодом ошибки E4012; диск был заполнен.",
        "- 청구서 내보내기가 또 오류 코드 E4012로 실패했다. 디스크가 꽉 찼었다."),
    "- W @Peter: Moves to Munich on December 15.": (
        "- W @Peter: Si trasferisce a Monaco il 15 dicembre.",
        "- W @Peter: Verhuist op 15 december naar München.",
        "- W @Peter: Переезжает в Мюнхен 15 декабря.",
        "- W @Peter: 12월 15일에 뮌헨으로 이사한다."),
    "- W @Mara: Started a pottery course on Monday evenings.": (
        "- W @Mara: Ha iniziato un corso di ceramica il lunedì sera.",
        "- W @Mara: Is begonnen met een pottenbakcursus op maandagavond.",
        "- W @Mara: Начала ходить на курсы гончарного дела по понедельникам вечером.",
        "- W @Mara: 월요일 저녁마다 도예 수업을 듣기 시작했다."),
    "- Bought Mara a birthday gift: a book about Japanese ceramics.": (
        "- Comprato un regalo di compleanno per Mara: un libro sulla ceramica giapponese.",
        "- Een verjaardagscadeau voor Mara gekocht: een boek over Japanse keramiek.",
        "- Купила Mara подарок на день рождения: книгу о японской керамике.",
        "- Mara 생일 선물을 샀다. 일본 도자기에 관한 책."),
    "- Priya's farewell lunch at Nordbank is planned for December 19.": (
        "- Il pranzo d'addio di Priya da Nordbank è previsto per il 19 dicembre.",
        "- Priya's afscheidslunch bij Nordbank staat gepland op 19 december.",
        "- Прощальный обед Priya в Nordbank запланирован на 19 декабря.",
        "- Nordbank에서 Priya의 송별 점심은 12월 19일로 잡혀 있다."),
    "- O(c=0.5) @Peter: No longer thinks Vienna is the best city to live in.": (
        "- O(c=0.5) @Peter: Non pensa più che Vienna sia la città migliore in cui vivere.",
        "- O(c=0.5) @Peter: Vindt Wenen niet meer de beste stad om te wonen.",
        "- O(c=0.5) @Peter: Больше не считает Вену лучшим городом для жизни.",
        "- O(c=0.5) @Peter: 더 이상 빈이 살기 가장 좋은 도시라고 생각하지 않는다."),
    "- W @Lea: Returns from parental leave on February 3.": (
        "- W @Lea: Rientra dal congedo parentale il 3 febbraio.",
        "- W @Lea: Komt op 3 februari terug van ouderschapsverlof.",
        "- W @Lea: Возвращается из отпуска по уходу за ребёнком 3 февраля.",
        "- W @Lea: 2월 3일에 육아휴직에서 복귀한다."),
    "- Tom split the test suite; the pipeline now takes twelve minutes.": (
        "- Tom ha diviso la suite di test; ora la pipeline richiede dodici minuti.",
        "- Tom heeft de testsuite opgesplitst; de pipeline duurt nu twaalf minuten.",
        "- Tom разбил набор тестов; теперь пайплайн идёт двенадцать минут.",
        "- Tom이 테스트 스위트를 나눴다. 이제 파이프라인이 12분 걸린다."),
    "- Reminder: Mara's birthday is on November 29.": (
        "- Promemoria: il compleanno di Mara è il 29 novembre.",
        "- Herinnering: Mara is op 29 november jarig.",
        "- Напоминание: день рождения Mara 29 ноября.",
        "- 리마인더: Mara 생일은 11월 29일."),
    "- B @Peter: I sent Peter the moving checklist.": (
        "- B @Peter: Ho mandato a Peter la checklist per il trasloco.",
        "- B @Peter: Ik heb Peter de verhuischecklist gestuurd.",
        "- B @Peter: Отправила Peter чек-лист для переезда.",
        "- B @Peter: Peter에게 이사 체크리스트를 보냈다."),
    "- O(c=0.7) @Mara: Prefers small dinners to big parties.": (
        "- O(c=0.7) @Mara: Preferisce le cene piccole alle grandi feste.",
        "- O(c=0.7) @Mara: Heeft liever kleine etentjes dan grote feesten.",
        "- O(c=0.7) @Mara: Предпочитает небольшие ужины большим вечеринкам.",
        "- O(c=0.7) @Mara: 큰 파티보다 소규모 저녁 모임을 좋아한다."),
    "- Backend developer and a friend from university.": (
        "- Sviluppatrice backend e amica dell'università.",
        "- Backendontwikkelaar en een vriendin van de universiteit.",
        "- Бэкенд-разработчица, подруга с университета.",
        "- 백엔드 개발자이고 대학 시절 친구."),
    "- Leaves Nordbank for Fernwerk in January.": (
        "- A gennaio lascia Nordbank per Fernwerk.",
        "- Gaat in januari van Nordbank naar Fernwerk.",
        "- В январе уходит из Nordbank в Fernwerk.",
        "- 1월에 Nordbank를 떠나 Fernwerk로 옮긴다."),
    "- Childhood friend; has a dog called Bruno.": (
        "- Amico d'infanzia; ha un cane che si chiama Bruno.",
        "- Jeugdvriend; heeft een hond die Bruno heet.",
        "- Друг детства; у него собака по кличке Bruno.",
        "- 어릴 적 친구. Bruno라는 개를 키운다."),
    "- Moving from Vienna to Munich in December.": (
        "- A dicembre si trasferisce da Vienna a Monaco.",
        "- Verhuist in december van Wenen naar München.",
        "- В декабре переезжает из Вены в Мюнхен.",
        "- 12월에 빈에서 뮌헨으로 이사한다."),
}

# English question -> (it, nl, ru, ko)
QUESTIONS = {
    "Who is Priya?": ("Chi è Priya?", "Wie is Priya?", "Кто такая Priya?", "Priya는 누구야?"),
    "Who is Tom?": ("Chi è Tom?", "Wie is Tom?", "Кто такой Tom?", "Tom은 누구야?"),
    "Tell me about Fernwerk.": ("Parlami di Fernwerk.", "Vertel me over Fernwerk.", "Расскажи про Fernwerk.",
                                "Fernwerk에 대해 알려 줘."),
    "Who is Bruno?": ("Chi è Bruno?", "Wie is Bruno?", "Кто такой Bruno?", "Bruno는 누구야?"),
    "What happened on November 21?": ("Cosa è successo il 21 novembre?", "Wat is er op 21 november gebeurd?",
                                      "Что было 21 ноября?", "11월 21일에 무슨 일이 있었어?"),
    "What did I do yesterday?": ("Cosa ho fatto ieri?", "Wat heb ik gisteren gedaan?", "Что я делала вчера?",
                                 "어제 뭐 했지?"),
    "When is the dentist appointment?": ("Quando è l'appuntamento dal dentista?", "Wanneer is de tandartsafspraak?",
                                         "Когда приём у стоматолога?", "치과 예약이 언제야?"),
    "What happened on Monday?": ("Cosa è successo lunedì?", "Wat gebeurde er maandag?", "Что было в понедельник?",
                                 "월요일에 무슨 일이 있었어?"),
    "What does Peter prefer for short trips?": (
        "Cosa preferisce Peter per i viaggi brevi?", "Wat heeft Peter liever bij korte reizen?",
        "Что Peter предпочитает для коротких поездок?", "Peter는 짧은 이동에 뭘 더 좋아해?"),
    "What does Priya think of open-plan offices?": (
        "Cosa pensa Priya degli open space?", "Wat vindt Priya van kantoortuinen?",
        "Что Priya думает об опенспейсах?", "Priya는 개방형 사무실을 어떻게 생각해?"),
    "What does Tom think about code reviews?": (
        "Cosa pensa Tom delle code review?", "Wat vindt Tom van codereviews?", "Что Tom думает о код-ревью?",
        "Tom은 코드 리뷰에 대해 어떻게 생각해?"),
    "How does Mara feel about the climbing gym?": (
        "Cosa ne pensa Mara della palestra di arrampicata?", "Hoe vindt Mara de klimhal?",
        "Как Mara относится к скалодрому?", "Mara는 클라이밍장을 어떻게 생각해?"),
    "Who is standing in for Lea while she is away?": (
        "Chi fa le veci di Lea mentre è via?", "Wie neemt het werk van Lea waar zolang ze weg is?",
        "Кто подменяет Lea, пока её нет?", "Lea가 없는 동안 누가 대신하고 있어?"),
    "How long does the build take now?": ("Quanto ci mette adesso la build?", "Hoe lang duurt de build nu?",
                                          "Сколько сейчас длится сборка?", "지금 빌드는 얼마나 걸려?"),
    "What present did I get for Mara?": ("Cosa ho regalato a Mara?", "Wat heb ik Mara cadeau gegeven?",
                                         "Что я подарила Mara?", "Mara한테 뭘 선물했지?"),
    "Which employer is Priya leaving?": ("Da quale azienda se ne va Priya?", "Bij welke werkgever vertrekt Priya?",
                                         "Из какой компании уходит Priya?", "Priya는 어느 회사를 그만둬?"),
    "In which city will Peter's dog live next year?": (
        "In quale città vivrà il cane di Peter l'anno prossimo?", "In welke stad woont de hond van Peter volgend jaar?",
        "В каком городе будет жить собака Peter в следующем году?", "내년에 Peter의 개는 어느 도시에서 살아?"),
    "In which city will Priya work from January?": (
        "In quale città lavorerà Priya da gennaio?", "In welke stad werkt Priya vanaf januari?",
        "В каком городе Priya будет работать с января?", "1월부터 Priya는 어느 도시에서 일해?"),
    "Who made the test pipeline faster?": (
        "Chi ha reso più veloce la pipeline dei test?", "Wie heeft de testpipeline sneller gemaakt?",
        "Кто ускорил тестовый пайплайн?", "테스트 파이프라인을 빠르게 만든 사람은 누구야?"),
    "How quickly does Lea's stand-in want code reviewed?": (
        "Entro quanto tempo vuole il sostituto di Lea che il codice venga revisionato?",
        "Hoe snel wil de vervanger van Lea dat code gereviewd wordt?",
        "Как быстро заместитель Lea хочет, чтобы код проверяли?",
        "Lea 대신 일하는 사람은 코드 리뷰를 얼마나 빨리 하길 원해?"),
    "error E4012": ("errore E4012", "fout E4012", "ошибка E4012", "오류 E4012"),
    "billing.retry_limit": ("billing.retry_limit",) * 4,
    "Schwabing": ("Schwabing",) * 4,
    "Postgres invoice queue": ("Postgres coda delle fatture", "Postgres factuurwachtrij", "Postgres очередь счетов",
                               "Postgres 청구서 큐"),
}

D18, D19, D20, D21, D24, D25, D26 = (f"memory/2025-11-{d}.md" for d in (18, 19, 20, 21, 24, 25, 26))
PRIYA, PETER = "bank/entities/Priya.md", "bank/entities/Peter.md"
COMING_LANGS = ("en",) + MORE_LANGS

# (category, (en, it, nl, ru, ko), [(path, English fragment)]); now is Thursday 2025-11-27.
COMING = [
    ("coming", ("What is on this weekend?", "Cosa c'è questo fine settimana?",
                "Wat staat er dit weekend op het programma?", "Что у меня на этих выходных?", "이번 주말에 뭐 있어?"),
     [(D26, "Mara's birthday")]),
    ("coming", ("What do I have next week?", "Che impegni ho la settimana prossima?", "Wat heb ik volgende week?",
                "Что у меня на следующей неделе?", "다음 주에 무슨 일정 있어?"),
     [(D20, "Dentist appointment")]),
    ("coming", ("When is Peter moving?", "Quando trasloca Peter?", "Wanneer verhuist Peter?",
                "Когда переезжает Peter?", "Peter는 언제 이사해?"),
     [(D24, "Moves to Munich"), (PETER, "Vienna to Munich")]),
    ("coming", ("When does Lea come back?", "Quando torna Lea?", "Wanneer komt Lea terug?", "Когда вернётся Lea?",
                "Lea는 언제 돌아와?"),
     [(D25, "Returns from parental leave")]),
    ("change", ("Where does Peter live now?", "Dove abita Peter adesso?", "Waar woont Peter nu?",
                "Где сейчас живёт Peter?", "Peter는 지금 어디에 살아?"),
     [(D18, "Lives in Vienna"), (PETER, "Vienna to Munich"), (D24, "Moves to Munich")]),
    ("change", ("Where is Priya's new job?", "Dov'è il nuovo lavoro di Priya?", "Waar is de nieuwe baan van Priya?",
                "Где новая работа Priya?", "Priya의 새 직장은 어디야?"),
     [(D19, "A solar energy startup in Hamburg"), (D21, "Signed the contract"), (PRIYA, "Leaves Nordbank")]),
    ("change", ("When does Priya start her new job?", "Quando inizia Priya il nuovo lavoro?",
                "Wanneer begint Priya aan haar nieuwe baan?", "Когда Priya выходит на новую работу?",
                "Priya는 새 직장에 언제 출근해?"),
     [(D21, "Signed the contract")]),
    ("change", ("Has Peter changed his mind about Vienna?", "Peter ha cambiato idea su Vienna?",
                "Is Peter anders gaan denken over Wenen?", "Peter изменил мнение о Вене?",
                "Peter가 빈에 대한 생각이 바뀌었어?"),
     [(D25, "No longer thinks Vienna")]),
]
