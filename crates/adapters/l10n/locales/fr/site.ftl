site-logged-in = Vous êtes connecté.
site-logged-out = Vous êtes déconnecté.
site-verified = Vérifié et connecté !
site-code-sent = Nous avons envoyé un code à 6 chiffres à { $email }.
site-reset-link-sent = Si un compte existe pour cette adresse e-mail, nous avons envoyé un lien de réinitialisation du mot de passe.
site-password-reset = Votre mot de passe a été réinitialisé. Vous pouvez maintenant vous connecter.
site-chat-ended = Discussion terminée.
site-discord-unlinked = Discord dissocié.
