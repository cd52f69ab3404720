# Les e-mails aux acheteurs à propos de leur commande.

mail-subject-receipt = Votre reçu { $shop } pour la commande n° { $id }
mail-subject-delivered = Votre commande { $shop } n° { $id } a été livrée
mail-subject-refunded = Votre commande { $shop } n° { $id } a été remboursée
mail-subject-claimed = L'équipe vous attend dans le jeu (commande n° { $id })
mail-subject-released = Votre commande { $shop } n° { $id } est de retour dans la file
mail-subject-no-show = Votre temps pour rejoindre est écoulé (commande n° { $id })

## Le récapitulatif de la commande

mail-subtotal = Sous-total
mail-discount = Remise
mail-fee = Frais de traitement
mail-total = Total
mail-total-of-record = Dans la devise de la boutique
mail-about = ≈ { $amount }
mail-roblox-username = Nom d'utilisateur Roblox

## Dit dans plusieurs e-mails

mail-your-order = Votre commande
mail-your-order-page = la page de votre commande
mail-paste-link = Ou collez ce lien dans votre navigateur : { $link }
mail-the-staff = Le membre de l'équipe
mail-a-staff = Un membre de l'équipe
mail-no-reason = aucune raison donnée
mail-help-discord-text = Répondez à cet e-mail ou posez votre question sur notre serveur Discord : { $invite }
mail-help-discord-html = Répondez à cet e-mail ou posez votre question sur { $server } ({ $invite }).
mail-help-discord-server = notre serveur Discord
mail-help-chat = Répondez à cet e-mail ou ouvrez le chat d'aide de la boutique.

## Le reçu

mail-receipt-thanks = Merci pour votre commande !
mail-receipt-paid = La commande n° { $id } est payée.
mail-next-heading = Et maintenant :
mail-receipt-we-mail = Nous vous écrivons quand l'équipe vous attend et une fois la commande livrée.
mail-follow-order = Suivez votre commande (sans connexion ; gardez ce lien pour vous) :
mail-follow-order-link = Suivez votre commande
mail-follow-order-aside = (sans connexion ; gardez ce lien pour vous)

## Livrée

mail-delivered-done = Bonne nouvelle : la commande n° { $id } a été livrée à { $roblox } dans Roblox.
mail-delivered-picture = Une photo de la livraison : { $picture }
mail-delivered-picture-link = Voir une photo de la livraison
mail-delivered-got-text = Vous avez tout reçu ? Appuyez sur « J'ai reçu mes objets » sur la page de votre commande : { $link }
mail-delivered-got-html = Vous avez tout reçu ? Appuyez sur « J'ai reçu mes objets » sur { $page } ({ $link }).
mail-delivered-steps-heading = Les étapes de votre commande :
mail-delivered-review = Satisfait ? Laissez un avis sur la même page : cela aide d'autres joueurs à nous trouver.
mail-delivered-missing = Il manque quelque chose ? { $help }

## Remboursée

mail-refunded = La commande n° { $id } a été remboursée : { $total } retourne sur votre moyen de paiement. Les banques l'affichent généralement sous 5 à 10 jours.

## Un membre de l'équipe a pris la commande

mail-claimed = { $staff } est prêt à livrer la commande n° { $id } à { $roblox } et vous attend dans le jeu.
mail-claimed-open-text = Ouvrez la page de votre commande pour le lien du serveur privé, rejoignez-le et appuyez sur « Je suis dans le jeu » :
mail-claimed-open-html = { $open } pour le lien du serveur privé, rejoignez-le et appuyez sur « Je suis dans le jeu ».
mail-claimed-open-link = Ouvrez la page de votre commande

## Un membre de l'équipe a remis la commande dans la file

mail-released-text = { $staff } n'a pas pu livrer la commande n° { $id } cette fois et l'a remise dans la file : « { $reason } »
mail-released-html = { $staff } n'a pas pu livrer la commande n° { $id } cette fois et l'a remise dans la file : { $reason }
mail-released-next-text = Rien n'est perdu : votre commande garde sa place selon l'ordre de paiement, et le prochain membre de l'équipe la prendra. À ce moment-là, la page de votre commande affichera de nouveau son serveur privé : rejoignez-le, puis appuyez sur « Je suis dans le jeu ».
mail-released-next-html = Rien n'est perdu : votre commande garde sa place selon l'ordre de paiement, et le prochain membre de l'équipe la prendra. À ce moment-là, { $page } affichera de nouveau son serveur privé : rejoignez-le, puis appuyez sur « Je suis dans le jeu ».

## Le temps de l'acheteur pour rejoindre est écoulé

mail-no-show-text = { $staff } vous attend depuis { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } dans le jeu pour livrer la commande n° { $id }. Rejoignez son serveur privé maintenant (le lien est sur la page de votre commande) et appuyez sur « Je suis dans le jeu ». Si vous ne pouvez pas, dites-le sur la page de la commande : sinon, { $staff } pourrait remettre votre commande dans la file, et elle sera reprise plus tard.
mail-no-show-html = { $staff } vous attend depuis { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } dans le jeu pour livrer la commande n° { $id }.
mail-no-show-join-html = Rejoignez son serveur privé maintenant (le lien est sur { $page }) et appuyez sur « Je suis dans le jeu ». Si vous ne pouvez pas, dites-le sur la page de la commande : sinon, elle pourrait être remise dans la file, et elle sera reprise plus tard.

## Les étapes après le paiement

mail-step-done = fait
mail-step-discord = Rejoignez notre serveur Discord
mail-step-discord-detail = { $tickets ->
        [yes] Utilisez le compte Discord lié lors du paiement : le ticket de votre commande s'y ouvre, et l'équipe peut vous y joindre.
       *[no] Utilisez le compte Discord lié lors du paiement, pour que l'équipe puisse vous y joindre.
    }
mail-step-wait = Attendez un membre de l'équipe
mail-step-wait-detail = L'équipe traite les commandes dans l'ordre de paiement ; la page de votre commande indique votre place dans la file. La livraison prend généralement moins de { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }.
mail-step-join = Rejoignez son serveur privé
mail-step-join-detail = Quand votre commande est prise, la page de votre commande affiche le lien de son serveur privé dans Grow a Garden : rejoignez-le avec votre compte Roblox.
mail-step-ready = Appuyez sur « Je suis dans le jeu »
mail-step-ready-detail = Sur la page de votre commande, une fois dans son serveur, pour qu'il sache que vous êtes là.
mail-step-receive = Recevez vos objets
mail-step-receive-detail = Acceptez son échange dans le jeu. Nous vous écrivons une fois la commande livrée.
mail-step-review = Laissez un avis
mail-step-review-detail = Dites aux autres joueurs comment cela s'est passé, sur la page de votre commande.

## The account's mail

mail-subject-signup-code = Votre code de vérification { $shop }
mail-subject-password-reset = Réinitialisez votre mot de passe { $shop }
mail-subject-signup-attempt = Quelqu'un a tenté de s'inscrire sur { $shop } avec votre adresse
mail-hi = Bonjour { $name },
mail-code-is = Votre code de vérification { $shop } est { $code }
mail-code-is-html = Votre code de vérification { $shop } est
mail-code-enter = Saisissez-le sur la page de vérification pour terminer la création de votre compte. Il expire dans 15 minutes.
mail-code-not-you = Si vous ne vous êtes pas inscrit sur { $shop }, vous pouvez ignorer cet e-mail.
mail-reset-asked = Quelqu'un a demandé à réinitialiser le mot de passe de votre compte { $shop }.
mail-reset-open = Ouvrez ce lien pour en choisir un nouveau :
mail-reset-link = Choisir un nouveau mot de passe
mail-reset-once = Le lien ne fonctionne qu'une fois et expire dans 60 minutes. Si vous n'avez rien demandé, ignorez cet e-mail : votre mot de passe reste inchangé.
mail-attempt = Quelqu'un a demandé à créer un compte { $shop } avec cette adresse e-mail, mais vous en avez déjà un. Aucun nouveau compte n'a été créé.
mail-attempt-reset-text = Si c'était vous et que vous avez oublié votre mot de passe, choisissez-en un nouveau ici :
mail-attempt-reset-html = Si c'était vous et que vous avez oublié votre mot de passe, { $choose } ({ $link }).
mail-attempt-choose = choisissez-en un nouveau
mail-attempt-not-you = Si ce n'était pas vous, ignorez cet e-mail : votre compte reste inchangé.
