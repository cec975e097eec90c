### What persons read: invitation and code emails, the invitation pages, the report.
### English is the reference: every other locale has exactly these messages.
### Arguments: $company (organization name), $name (first name), $email (address),
### $expiry (date and time, already formatted), $variant ("assessment" or "access"),
### $reminder ("yes" or "no"), $minutes, $tries, $percent (numbers), $notes, $date, $host.

## Wiadomości e-mail

invitation-email-subject = { $reminder ->
        [yes] Przypomnienie: { $variant ->
            [access] { $company } zaprasza do udostępnienia profilu oceny
           *[assessment] { $company } zaprasza do udziału w ocenie
        }
       *[no] { $variant ->
            [access] { $company } zaprasza do udostępnienia profilu oceny
           *[assessment] { $company } zaprasza do udziału w ocenie
        }
    }
email-greeting = Dzień dobry, { $name }!
email-greeting-anonymous = Dzień dobry!
invitation-email-intro = { $variant ->
        [access] { $company } zaprasza do dołączenia do swojej puli talentów i udostępnienia posiadanego już profilu oceny.
       *[assessment] { $company } zaprasza do udziału w ocenie tego, co motywuje Cię w pracy.
    }
invitation-email-message = Wiadomość od { $company }:
invitation-email-link = Aby odpowiedzieć, otwórz ten link:
invitation-email-valid-until = Link jest ważny do { $expiry }.
code-email-subject = Kod potwierdzający – { $company }
code-email-intro = Oto Twój kod potwierdzający odpowiedź na zaproszenie od { $company }:
code-email-validity = { $minutes ->
        [one] Kod jest ważny przez minutę. Wpisz go na stronie zaproszenia.
        [few] Kod jest ważny przez { $minutes } minuty. Wpisz go na stronie zaproszenia.
        [many] Kod jest ważny przez { $minutes } minut. Wpisz go na stronie zaproszenia.
       *[other] Kod jest ważny przez { $minutes } minuty. Wpisz go na stronie zaproszenia.
    }
code-email-ignore = Jeśli prośba o ten kod nie pochodzi od Ciebie, zignoruj tę wiadomość – bez kodu nic się nie zmieni.

## Udogodnienia przyznane na czas oceny

accommodations-intro = Na czas oceny przyznano Ci następujące udogodnienia:
accommodation-extra-time = { $percent }% więcej czasu
accommodation-breaks = Przerwy między częściami – zawsze, gdy ich potrzebujesz
accommodation-screen-reader = Pełna obsługa czytników ekranu
accommodation-notes = Uzgodniono również: { $notes }

## Strona zaproszenia

page-invitation-title = Zaproszenie od { $company }
page-assessment-intro = { $company } zaprasza do udziału w ocenie tego, co motywuje Cię w pracy.
page-assessment-consent = Przyjmując zaproszenie, dołączasz do puli talentów { $company } z tym adresem e-mail ({ $email }). Możesz później z niej zrezygnować.
page-accept-button = Przyjmij zaproszenie
page-access-intro = { $company } prosi o dołączenie do swojej puli talentów i udostępnienie posiadanego już profilu oceny.
page-access-share-label = Tak, { $company } może zobaczyć wyniki ocen wykonanych przeze mnie przed dołączeniem.
page-access-share-help = Jeśli nie zaznaczysz tego pola, { $company } zobaczy tylko oceny wykonane od teraz. Jeśli je zaznaczysz, najpierw wyślemy kod na adres { $email }, aby potwierdzić, że to Twoja odpowiedź.
page-access-button = Przyjmij
page-valid-until = To zaproszenie jest ważne do { $expiry }.
page-accommodations-title = Twoje udogodnienia
page-used-title = Zaproszenie zostało już wykorzystane
page-used-body = To zaproszenie od { $company } zostało już przyjęte. Nie trzeba nic więcej robić.
page-expired-title = Zaproszenie wygasło
page-expired-body = To zaproszenie od { $company } wygasło. O nowe zaproszenie poproś { $company }.
page-withdrawn-title = Zaproszenie zostało wycofane
page-withdrawn-body = To zaproszenie zostało wycofane przez { $company }.
page-not-found-title = Nie znaleziono zaproszenia
page-not-found-body = Ten link jest nieprawidłowy. Sprawdź, czy został skopiowany w całości.
page-deactivated-title = Nie można dołączyć
page-deactivated-body = Twój udział został dezaktywowany przez organizację. Skontaktuj się z nią.
page-full-title = W tej chwili nie można dołączyć
page-full-body = Organizacja nie może obecnie przyjmować nowych osób. Skontaktuj się z nią.
page-no-longer-valid-title = Zaproszenie jest już nieważne
page-no-longer-valid-body = Tego zaproszenia nie można już przyjąć.
page-error-title = Coś poszło nie tak
page-error-body = Spróbuj ponownie za minutę.

## Kod jednorazowy

page-code-title = Potwierdź swoją tożsamość
page-code-label = Kod z wiadomości e-mail
page-code-button = Potwierdź
page-code-help = { $minutes ->
        [one] Zgodę w odpowiedzi dla { $company } możesz wyrazić tylko Ty: kod potwierdza, że masz dostęp do tego adresu e-mail. Kod jest ważny przez minutę.
        [few] Zgodę w odpowiedzi dla { $company } możesz wyrazić tylko Ty: kod potwierdza, że masz dostęp do tego adresu e-mail. Kod jest ważny przez { $minutes } minuty.
        [many] Zgodę w odpowiedzi dla { $company } możesz wyrazić tylko Ty: kod potwierdza, że masz dostęp do tego adresu e-mail. Kod jest ważny przez { $minutes } minut.
       *[other] Zgodę w odpowiedzi dla { $company } możesz wyrazić tylko Ty: kod potwierdza, że masz dostęp do tego adresu e-mail. Kod jest ważny przez { $minutes } minuty.
    }
page-code-resend = Wyślij nowy kod
page-code-sent = Wysłaliśmy 6-cyfrowy kod na adres { $email }. Wpisz go tutaj, aby potwierdzić.
page-code-not-sent = Nie udało się teraz wysłać kodu. Poproś o nowy kod za minutę.
page-code-too-many = Na ten adres e-mail wysłano zbyt wiele kodów. Użyj ostatniego z nich lub spróbuj ponownie za godzinę.
page-code-no-live = Ten kod jest już nieważny (wygasł, został użyty lub zbyt wiele razy wpisano go błędnie). Poproś o nowy kod.
page-code-wrong = { $tries ->
        [0] To nie jest prawidłowy kod. Wykorzystano wszystkie próby dla tego kodu.
        [one] To nie jest prawidłowy kod. Dla tego kodu pozostała jeszcze jedna próba.
        [few] To nie jest prawidłowy kod. Dla tego kodu pozostały jeszcze { $tries } próby.
        [many] To nie jest prawidłowy kod. Dla tego kodu pozostało jeszcze { $tries } prób.
       *[other] To nie jest prawidłowy kod. Dla tego kodu pozostało jeszcze { $tries } próby.
    }
page-code-malformed = Kod składa się z 6 cyfr. Wpisz go ponownie.

## Po przyjęciu zaproszenia

page-welcome-title = Witamy
page-welcome-body = Zaproszenie zostało przyjęte. Twój adres e-mail to { $email }. Możesz zamknąć tę stronę.
page-continue = Przejdź do { $host }

## Raport

report-title = Raport z oceny
report-completed = Data ukończenia: { $date }
report-needs = Potrzeby według osi motywacji
report-competencies = Kompetencje: wsparcie ze strony motywacji
report-personality = Osobowość
report-accommodations = Udogodnienia
report-footer = Ten raport opisuje jedną osobę. Wyniki pokazują, w jakim stopniu motywacja wspiera poszczególne kompetencje; nie są miarą umiejętności i nigdy nie służą do porównywania osób.
report-basis = { $assessments ->
        [one] Na podstawie jednej oceny i { $responses } odpowiedzi
        [few] Na podstawie { $assessments } ocen i { $responses } odpowiedzi
        [many] Na podstawie { $assessments } ocen i { $responses } odpowiedzi
       *[other] Na podstawie { $assessments } oceny i { $responses } odpowiedzi
    }
report-model = Model: { $model } { $version }, mapowanie { $mapping }
report-anchor = kotwica
report-band-limited = ograniczone
report-band-some = częściowe
report-band-moderate = umiarkowane
report-band-high = silne

## Opis osobowości w raporcie: tworzony wyłącznie na podstawie wyników danej osoby.
## $needs i $competencies to listy nazw, już połączone zgodnie z regułami języka („A, B i C”).

personality-drives = Co motywuje tę osobę
personality-strongest = Najsilniejsze motywatory to { $needs }. Praca, która odpowiada na te potrzeby, najpewniej będzie dla tej osoby źródłem energii.
# $need: nazwa najsilniejszego motywatora; $definition: jego znaczenie (pełne zdanie z modelu, zaczynające się wielką literą).
personality-means = Co oznacza „{ $need }”? { $definition }
personality-less-central = Mniej istotne są { $needs } – w mniejszym stopniu decydują o wyborze między różnymi możliwościami.
personality-competencies = Kompetencje wspierane przez motywację
personality-strong = Silne wsparcie: { $competencies }.
personality-moderate = Umiarkowane wsparcie: { $competencies }.
personality-limited = Ograniczone wsparcie: { $competencies }.
personality-even = Motywacja wspiera wszystkie kompetencje w mniej więcej równym stopniu.
personality-basis = Na podstawie { $assessments ->
        [one] jednej oceny
        [few] { $assessments } ocen
        [many] { $assessments } ocen
       *[other] { $assessments } oceny
    } i { $responses } odpowiedzi. Poziomy opisują wsparcie ze strony motywacji, a nie umiejętności.

## Strona raportu otwierana przez link z systemu ATS (dla zespołu rekrutacyjnego organizacji)

report-page-shared = Raport udostępniony przez { $company } za pośrednictwem systemu rekrutacyjnego (ATS). Data ukończenia: { $date }
report-page-match = Dopasowanie do profilu { $profile }
report-page-category = { $category ->
        [high] wysokie
        [moderate] umiarkowane
       *[low] niskie
    }
report-page-competency = Kompetencja
report-page-score = Wynik
report-page-band = Poziom
report-page-download = Pobierz raport w formacie PDF
report-page-gone-title = Ten raport nie jest już dostępny
report-page-gone-body = Link wygasł lub raport został wycofany. Poproś organizację, która go przesłała, o nowy link.
report-page-not-found-title = Nie znaleziono raportu
report-page-not-found-body = Ten link jest nieprawidłowy.
report-page-busy-title = Spróbuj ponownie
report-page-busy-body = Nie można teraz wyświetlić raportu. Spróbuj ponownie za minutę.
