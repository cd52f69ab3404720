# Die Fehlermeldungen der API.

## Jede Anfrage

error-internal = Bei uns ist etwas schiefgelaufen. Bitte versuche es erneut.
error-database-unavailable = Der Shop erreicht seine Datenbank gerade nicht. Bitte versuche es gleich noch einmal.
error-sessions-unavailable = Der Shop erreicht seine Sitzungen gerade nicht. Bitte versuche es gleich noch einmal.
error-not-found = Nicht gefunden.
error-method-not-allowed = Diese Methode ist hier nicht erlaubt.
error-cross-site = Anfrage einer anderen Website abgelehnt.
error-log-in = Bitte melde dich an.
error-too-many-seconds = Zu viele Versuche. Versuche es in { $seconds ->
        [one] { $seconds } Sekunde
       *[other] { $seconds } Sekunden
    } erneut.
error-too-many-minutes = Zu viele Versuche. Versuche es in { $minutes ->
        [one] { $minutes } Minute
       *[other] { $minutes } Minuten
    } erneut.

## Inhalt und Felder der Anfrage

error-and-more-errors = { $first } (und weitere Fehler)
error-field-required = Das Feld { $field } ist erforderlich.
error-field-unexpected = Das Feld { $field } wird nicht erwartet.
error-field-twice = Das Feld { $field } kommt mehr als einmal vor.
error-invalid-value = Die Anfrage enthält einen ungültigen Wert: { $detail }
error-body-not-json = Der Inhalt der Anfrage muss JSON sein (Content-Type: application/json).
error-body-too-large = Der Inhalt der Anfrage ist größer als { $limit } Bytes.
error-body-invalid-json = Der Inhalt der Anfrage ist kein gültiges JSON.
error-body-unreadable = Der Inhalt der Anfrage konnte nicht gelesen werden.
error-query-unreadable = Die Abfrageparameter konnten nicht gelesen werden.
error-multipart = Der Inhalt der Anfrage muss multipart/form-data sein.
error-upload-unreadable = Der Upload konnte nicht gelesen werden.

## Konten

error-invalid-credentials = E-Mail oder Passwort ungültig.
error-code-wait = Bitte warte { $seconds ->
        [one] { $seconds } Sekunde
       *[other] { $seconds } Sekunden
    }, bevor du einen neuen Code anforderst.
error-mail-unavailable = Wir konnten die E-Mail gerade nicht senden. Bitte versuche es gleich noch einmal.
error-too-many-codes = Zu viele falsche Codes. Fordere einen neuen Code an.
error-code-invalid = Ungültiger Code. Bitte versuche es erneut.
error-code-expired = Dieser Code ist abgelaufen. Fordere einen neuen an.
error-language-unknown = Wähle eine der Sprachen, die der Shop anbietet: en, es, pt-BR, fr oder de.
error-email-taken = Diese E-Mail-Adresse ist bereits registriert.
error-reset-invalid = Dieser Link zum Zurücksetzen ist ungültig oder abgelaufen.
error-wrong-password = Das Passwort stimmt nicht.
error-passwords-differ = Die Passwörter stimmen nicht überein.
error-open-orders = Du hast { $count ->
        [one] { $count } Bestellung
       *[other] { $count } Bestellungen
    }, die auf Zahlung oder Lieferung warten. Du kannst dein Konto löschen, sobald sie geliefert oder abgeschlossen sind.

## Katalog, Warenkorb und Kasse

error-product-not-found = Produkt nicht gefunden.
error-order-not-found = Bestellung nicht gefunden.
error-chat-not-found = Chat nicht gefunden.
error-review-not-found = Bewertung nicht gefunden.
error-cart-empty = Dein Warenkorb ist leer.
error-cart-too-many = Du kannst höchstens { $max } Stück eines Produkts kaufen.
error-cart-too-many-lines = Eine Bestellung kann höchstens { $max } verschiedene Produkte enthalten.
error-fix-issues = Bitte behebe Folgendes, bevor du fortfährst:
error-out-of-stock = - { $name } ist ausverkauft.
error-not-enough-stock = - Von { $name } sind nur { $available } auf Lager, du hast aber { $requested } gewählt.
error-product-gone = - { $name } ist nicht mehr erhältlich.
error-product-id-gone = - Produkt Nr. { $id } ist nicht mehr erhältlich.
error-prices-changed = Die Preise haben sich geändert. Bitte prüfe deine Bestellung.
error-currency-unavailable = Die Währung { $currency } wird gerade nicht angeboten: Wähle eine andere und versuche es noch einmal.
error-blocked = Wir können diese Bestellung nicht annehmen. Bitte wende dich an den Support.
error-still-placing = Deine Bestellung wird noch aufgegeben. Versuche es gleich noch einmal.
error-payment-failed = Die Zahlung ist fehlgeschlagen.
error-cannot-cancel = Diese Bestellung kann nicht mehr storniert werden.
error-cancel-unavailable = Die Zahlung konnte gerade nicht storniert werden. Versuche es gleich noch einmal.
error-paid-cannot-cancel = Diese Bestellung ist bezahlt und kann nicht mehr storniert werden.
error-too-many-streams = Zu viele offene Live-Update-Verbindungen. Schließe einige Tabs und versuche es erneut.
error-streams-busy = Die Live-Updates sind gerade ausgelastet; die Seite aktualisiert sich von selbst.

## Gutscheincodes

error-promo-invalid = Ungültiger Gutscheincode
error-promo-inactive = Dieser Gutscheincode ist nicht mehr aktiv.
error-promo-expired = Dieser Gutscheincode ist abgelaufen.
error-promo-used-up = Dieser Gutscheincode hat sein Nutzungslimit erreicht.
error-promo-already-used = Du hast diesen Gutscheincode schon benutzt.
error-promo-need-code = Gib einen Gutscheincode ein.
error-promo-need-discord = Verknüpfe Discord, um diesen Code zu nutzen: Jeder Gutscheincode gilt einmal pro Discord-Konto.
error-promo-need-both = Gib einen Gutscheincode ein und verknüpfe Discord.

## Roblox und Discord

error-roblox-failed = Fehler bei der Verbindung mit Roblox.
error-discord-no-user-id = Discord-Anmeldung fehlgeschlagen: Es wurde keine Benutzer-ID übermittelt.
error-discord-code-refused = Discord-Anmeldung fehlgeschlagen: Die Anmeldung ist abgelaufen. Bitte verknüpfe Discord erneut.
error-discord-failed = Fehler bei der Verbindung mit Discord.
error-discord-unusable = Discord-Anmeldung fehlgeschlagen: Discord hat einen Kontonamen oder ein Bild gesendet, das der Shop nicht verwenden kann. Versuche es erneut oder bitte uns im Live-Chat um Hilfe.

## The values a shopper types

error-email-invalid = Bitte gib eine gültige E-Mail-Adresse ein.
error-password-too-short = Das Passwort muss mindestens 8 Zeichen lang sein.
error-password-too-long = Das Passwort darf höchstens 128 Zeichen lang sein.
error-password-enter = Gib dein Passwort ein.
error-name-empty = Der Name ist erforderlich.
error-name-too-long = Der Name darf höchstens 100 Zeichen lang sein.
error-name-control = Der Name darf keine Zeilenumbrüche oder anderen Steuerzeichen enthalten.
error-name-web-address = Der Name darf keine Webadresse enthalten.
error-roblox-enter = Gib deinen Roblox-Benutzernamen ein.
error-roblox-length = Ein Roblox-Benutzername muss 3 bis 20 Zeichen lang sein.
error-roblox-characters = Ein Roblox-Benutzername darf nur Buchstaben, Ziffern und einen Unterstrich enthalten.
error-roblox-underscores = Ein Roblox-Benutzername darf höchstens einen Unterstrich enthalten.
error-roblox-underscore-edge = Ein Roblox-Benutzername darf nicht mit einem Unterstrich beginnen oder enden.
error-roblox-not-found = Roblox-Benutzer nicht gefunden.

## Checkout's refusals of caps, keys and drops
error-too-many-pending = Du hast schon { $max } unbezahlte Bestellungen { $by ->
        [account] mit diesem Discord-Konto
        [session] in diesem Browser
       *[address] von dieser Netzwerkadresse
    }. Bezahle oder storniere eine, bevor du eine neue aufgibst.
error-account-cap = { $name } ist auf { $max } pro Konto begrenzt, und { $by ->
        [discord] dein Discord-Konto
        [account] dein Shop-Konto
       *[browser] dieser Browser
    } hat schon { $held }.
error-key-reused = Dieser Idempotency-Key wurde für eine andere Bestellung verwendet. Nimm einen neuen Schlüssel für eine neue Bestellung.
error-key-closed = Bestellung #{ $order } { $status ->
        [cancelled] wurde storniert
        [expired] ist abgelaufen
       *[closed] ist abgeschlossen
    }: Für sie ist nichts mehr reserviert. Starte eine neue Zahlung, um eine neue Bestellung aufzugeben.
error-not-released = Dieser Artikel erscheint am { $at }: { $name } ist noch nicht im Verkauf.

## The help chat's refusals

error-chat-ended = Dieses Gespräch ist beendet.
error-chat-agent-joined = Jemand anderes aus dem Team ist diesem Chat schon beigetreten.
error-chat-no-agent-asked = In diesem Chat wurde niemand aus dem Team angefragt.
error-chat-agent-requested = Für diesen Chat wurde schon jemand aus dem Team angefragt.
error-chat-join-first = Tritt dem Chat bei, bevor du antwortest.
error-chat-not-now = Das ist im aktuellen Zustand des Chats nicht möglich.
error-message-empty = Die Nachricht darf nicht leer sein.
error-message-too-long = Die Nachricht darf höchstens 2000 Zeichen lang sein.

## The buyer's steps on the order page, and its messages

error-ready-not-waiting = Nur eine bezahlte Bestellung, die auf die Lieferung wartet, kann als bereit markiert werden.
error-ready-held = Wir prüfen diese Zahlung vor der Lieferung. Du musst nichts tun.
error-ready-not-claimed = Noch hat niemand aus dem Team deine Bestellung übernommen. Sobald das passiert, erscheint hier der private Server: tritt ihm bei und drück dann hier.
error-ready-already = Das Team weiß schon, dass du im Spiel bist.
error-received-already = Du hast uns schon gesagt, dass du deine Items bekommen hast.
error-received-not-delivered = Du kannst deine Items bestätigen, sobald das Team die Bestellung als geliefert markiert hat.
error-messages-not-paid = Nachrichten sind möglich, sobald die Bestellung bezahlt ist.
# $days: how many days after the delivery the messages stay open
error-messages-after-delivery = Nachrichten zu einer Bestellung schließen { $days } Tage nach der Lieferung. Frag uns im Hilfe-Chat.
error-messages-closed = Zu dieser Bestellung sind keine Nachrichten mehr möglich. Frag uns im Hilfe-Chat.
