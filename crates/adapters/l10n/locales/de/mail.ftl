# Die E-Mails an Käufer zu ihrer Bestellung.

mail-subject-receipt = Deine { $shop }-Quittung für Bestellung Nr. { $id }
mail-subject-delivered = Deine { $shop }-Bestellung Nr. { $id } wurde geliefert
mail-subject-refunded = Deine { $shop }-Bestellung Nr. { $id } wurde erstattet
mail-subject-claimed = Das Team wartet im Spiel auf dich (Bestellung Nr. { $id })
mail-subject-released = Deine { $shop }-Bestellung Nr. { $id } ist wieder in der Warteschlange
mail-subject-no-show = Deine Zeit zum Beitreten ist abgelaufen (Bestellung Nr. { $id })

## Die Übersicht der Bestellung

mail-subtotal = Zwischensumme
mail-discount = Rabatt
mail-fee = Bearbeitungsgebühr
mail-total = Gesamt
mail-total-of-record = In der Währung des Shops
mail-about = ≈ { $amount }
mail-roblox-username = Roblox-Benutzername

## In mehreren E-Mails

mail-your-order = Deine Bestellung
mail-your-order-page = deiner Bestellseite
mail-paste-link = Oder füge diesen Link in deinen Browser ein: { $link }
mail-the-staff = Das Teammitglied
mail-a-staff = Ein Teammitglied
mail-no-reason = kein Grund angegeben
mail-help-discord-text = Antworte auf diese E-Mail oder frag auf unserem Discord-Server: { $invite }
mail-help-discord-html = Antworte auf diese E-Mail oder frag auf { $server } ({ $invite }).
mail-help-discord-server = unserem Discord-Server
mail-help-chat = Antworte auf diese E-Mail oder öffne den Hilfe-Chat im Shop.

## Die Quittung

mail-receipt-thanks = Danke für deine Bestellung!
mail-receipt-paid = Bestellung Nr. { $id } ist bezahlt.
mail-next-heading = So geht es weiter:
mail-receipt-we-mail = Wir schreiben dir, sobald das Team auf dich wartet und sobald geliefert ist.
mail-follow-order = Verfolge deine Bestellung (ohne Anmeldung; behalte diesen Link für dich):
mail-follow-order-link = Verfolge deine Bestellung
mail-follow-order-aside = (ohne Anmeldung; behalte diesen Link für dich)

## Geliefert

mail-delivered-done = Gute Nachricht: Bestellung Nr. { $id } wurde in Roblox an { $roblox } geliefert.
mail-delivered-picture = Ein Bild der Lieferung: { $picture }
mail-delivered-picture-link = Ein Bild der Lieferung ansehen
mail-delivered-got-text = Alles erhalten? Tippe auf deiner Bestellseite auf „Ich habe meine Items“: { $link }
mail-delivered-got-html = Alles erhalten? Tippe auf { $page } auf „Ich habe meine Items“ ({ $link }).
mail-delivered-steps-heading = Die Schritte deiner Bestellung:
mail-delivered-review = Zufrieden? Schreib eine Bewertung auf derselben Seite: Das hilft anderen Spielern, uns zu finden.
mail-delivered-missing = Fehlt etwas? { $help }

## Erstattet

mail-refunded = Bestellung Nr. { $id } wurde erstattet: { $total } geht an deine Zahlungsart zurück. Banken zeigen es meist innerhalb von 5 bis 10 Tagen an.

## Ein Teammitglied hat die Bestellung übernommen

mail-claimed = { $staff } ist bereit, Bestellung Nr. { $id } an { $roblox } zu liefern, und wartet im Spiel auf dich.
mail-claimed-open-text = Öffne deine Bestellseite für den Link zum privaten Server, tritt bei und tippe auf „Ich bin im Spiel“:
mail-claimed-open-html = { $open } für den Link zum privaten Server, tritt bei und tippe auf „Ich bin im Spiel“.
mail-claimed-open-link = Öffne deine Bestellseite

## Ein Teammitglied hat die Bestellung zurück in die Warteschlange gestellt

mail-released-text = { $staff } konnte Bestellung Nr. { $id } diesmal nicht liefern und hat sie zurück in die Warteschlange gestellt: „{ $reason }“
mail-released-html = { $staff } konnte Bestellung Nr. { $id } diesmal nicht liefern und hat sie zurück in die Warteschlange gestellt: { $reason }
mail-released-next-text = Nichts geht verloren: Deine Bestellung behält ihren Platz nach Zahlungszeitpunkt, und das nächste Teammitglied übernimmt sie. Dann zeigt deine Bestellseite wieder den privaten Server: Tritt bei und tippe auf „Ich bin im Spiel“.
mail-released-next-html = Nichts geht verloren: Deine Bestellung behält ihren Platz nach Zahlungszeitpunkt, und das nächste Teammitglied übernimmt sie. Dann steht auf { $page } wieder der private Server: Tritt bei und tippe auf „Ich bin im Spiel“.

## Die Zeit des Käufers zum Beitreten ist abgelaufen

mail-no-show-text = { $staff } wartet seit { $minutes ->
        [one] { $minutes } Minute
       *[other] { $minutes } Minuten
    } im Spiel auf dich, um Bestellung Nr. { $id } zu liefern. Tritt jetzt dem privaten Server bei (der Link steht auf deiner Bestellseite) und tippe auf „Ich bin im Spiel“. Wenn du es nicht schaffst, sag es auf der Bestellseite: Sonst stellt { $staff } deine Bestellung vielleicht zurück in die Warteschlange, und sie wird später wieder übernommen.
mail-no-show-html = { $staff } wartet seit { $minutes ->
        [one] { $minutes } Minute
       *[other] { $minutes } Minuten
    } im Spiel auf dich, um Bestellung Nr. { $id } zu liefern.
mail-no-show-join-html = Tritt jetzt dem privaten Server bei (der Link steht auf { $page }) und tippe auf „Ich bin im Spiel“. Wenn du es nicht schaffst, sag es auf der Bestellseite: Sonst kommt deine Bestellung vielleicht zurück in die Warteschlange, und sie wird später wieder übernommen.

## Die Schritte nach der Zahlung

mail-step-done = erledigt
mail-step-discord = Tritt unserem Discord-Server bei
mail-step-discord-detail = { $tickets ->
        [yes] Nutze das Discord-Konto, das du beim Bezahlen verknüpft hast: Dort öffnet sich das Ticket deiner Bestellung, und das Team kann dich darin erreichen.
       *[no] Nutze das Discord-Konto, das du beim Bezahlen verknüpft hast, damit das Team dich dort erreichen kann.
    }
mail-step-wait = Warte auf ein Teammitglied
mail-step-wait-detail = Das Team bearbeitet Bestellungen in der Reihenfolge ihrer Zahlung; deine Bestellseite zeigt deinen Platz in der Warteschlange. Die Lieferung dauert meist unter { $minutes ->
        [one] { $minutes } Minute
       *[other] { $minutes } Minuten
    }.
mail-step-join = Tritt ihrem privaten Server bei
mail-step-join-detail = Wenn deine Bestellung übernommen wird, zeigt deine Bestellseite den Link zu ihrem privaten Server in Grow a Garden: Tritt mit deinem Roblox-Konto bei.
mail-step-ready = Tippe auf „Ich bin im Spiel“
mail-step-ready-detail = Auf deiner Bestellseite, sobald du auf ihrem Server bist, damit sie wissen, dass du da bist.
mail-step-receive = Erhalte deine Items
mail-step-receive-detail = Nimm ihren Handel im Spiel an. Wir schreiben dir, sobald geliefert ist.
mail-step-review = Schreib eine Bewertung
mail-step-review-detail = Erzähl anderen Spielern auf deiner Bestellseite, wie es lief.

## The account's mail

mail-subject-signup-code = Dein Bestätigungscode für { $shop }
mail-subject-password-reset = Setze dein Passwort für { $shop } zurück
mail-subject-signup-attempt = Jemand wollte sich mit deiner Adresse bei { $shop } registrieren
mail-hi = Hallo { $name },
mail-code-is = Dein Bestätigungscode für { $shop } lautet { $code }
mail-code-is-html = Dein Bestätigungscode für { $shop } lautet
mail-code-enter = Gib ihn auf der Bestätigungsseite ein, um dein Konto fertig anzulegen. Er läuft in 15 Minuten ab.
mail-code-not-you = Wenn du dich nicht bei { $shop } registriert hast, kannst du diese E-Mail ignorieren.
mail-reset-asked = Jemand hat angefordert, das Passwort deines Kontos bei { $shop } zurückzusetzen.
mail-reset-open = Öffne diesen Link, um ein neues zu wählen:
mail-reset-link = Neues Passwort wählen
mail-reset-once = Der Link funktioniert einmal und läuft in 60 Minuten ab. Wenn du nichts angefordert hast, ignoriere diese E-Mail: Dein Passwort bleibt, wie es ist.
mail-attempt = Jemand wollte mit dieser E-Mail-Adresse ein Konto bei { $shop } anlegen, aber du hast schon eines. Es wurde kein neues Konto angelegt.
mail-attempt-reset-text = Wenn du das warst und dein Passwort vergessen hast, wähle hier ein neues:
mail-attempt-reset-html = Wenn du das warst und dein Passwort vergessen hast, { $choose } ({ $link }).
mail-attempt-choose = wähle ein neues
mail-attempt-not-you = Wenn du das nicht warst, ignoriere diese E-Mail: Dein Konto bleibt, wie es ist.
