site-logged-in = Angemeldet.
site-logged-out = Abgemeldet.
site-verified = Bestätigt und angemeldet!
site-code-sent = Wir haben einen 6-stelligen Code an { $email } geschickt.
site-reset-link-sent = Wenn es zu dieser E-Mail-Adresse ein Konto gibt, haben wir einen Link zum Zurücksetzen des Passworts geschickt.
site-password-reset = Dein Passwort wurde zurückgesetzt. Du kannst dich jetzt anmelden.
site-chat-ended = Chat beendet.
site-discord-unlinked = Discord getrennt.
