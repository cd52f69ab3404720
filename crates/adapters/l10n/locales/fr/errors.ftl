# Messages d'erreur de l'API.

## Toutes les requêtes

error-internal = Un problème est survenu de notre côté. Veuillez réessayer.
error-database-unavailable = La boutique ne peut pas joindre sa base de données pour le moment. Réessayez dans un instant.
error-sessions-unavailable = La boutique ne peut pas joindre ses sessions pour le moment. Réessayez dans un instant.
error-not-found = Introuvable.
error-method-not-allowed = Cette méthode n'est pas autorisée ici.
error-cross-site = Requête d'un autre site refusée.
error-log-in = Veuillez vous connecter.
error-too-many-seconds = Trop de tentatives. Réessayez dans { $seconds ->
        [one] { $seconds } seconde
       *[other] { $seconds } secondes
    }.
error-too-many-minutes = Trop de tentatives. Réessayez dans { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }.

## Le corps et les champs de la requête

error-and-more-errors = { $first } (et d'autres erreurs)
error-field-required = Le champ { $field } est obligatoire.
error-field-unexpected = Le champ { $field } n'est pas attendu.
error-field-twice = Le champ { $field } est donné plus d'une fois.
error-invalid-value = La requête contient une valeur non valide : { $detail }
error-body-not-json = Le corps de la requête doit être du JSON (Content-Type: application/json).
error-body-too-large = Le corps de la requête dépasse { $limit } octets.
error-body-invalid-json = Le corps de la requête n'est pas du JSON valide.
error-body-unreadable = Le corps de la requête n'a pas pu être lu.
error-query-unreadable = Les paramètres de la requête n'ont pas pu être lus.
error-multipart = Le corps de la requête doit être multipart/form-data.
error-upload-unreadable = L'envoi n'a pas pu être lu.

## Comptes

error-invalid-credentials = E-mail ou mot de passe incorrect.
error-code-wait = Attendez { $seconds ->
        [one] { $seconds } seconde
       *[other] { $seconds } secondes
    } avant de demander un nouveau code.
error-mail-unavailable = Nous n'avons pas pu envoyer l'e-mail pour le moment. Réessayez dans un instant.
error-too-many-codes = Trop de codes erronés. Demandez un nouveau code.
error-code-invalid = Code non valide. Veuillez réessayer.
error-code-expired = Ce code a expiré. Demandez-en un nouveau.
error-language-unknown = Choisissez une des langues proposées par la boutique : en, es, pt-BR, fr ou de.
error-email-taken = Cette adresse e-mail est déjà enregistrée.
error-reset-invalid = Ce lien de réinitialisation n'est pas valide ou a expiré.
error-wrong-password = Le mot de passe n'est pas correct.
error-passwords-differ = Les mots de passe ne correspondent pas.
error-open-orders = Vous avez { $count ->
        [one] { $count } commande
       *[other] { $count } commandes
    } en attente de paiement ou de livraison. Vous pourrez supprimer votre compte une fois qu'elles seront livrées ou closes.

## Le catalogue, le panier et le paiement

error-product-not-found = Produit introuvable.
error-order-not-found = Commande introuvable.
error-chat-not-found = Conversation introuvable.
error-review-not-found = Avis introuvable.
error-cart-empty = Votre panier est vide.
error-cart-too-many = Vous pouvez acheter au plus { $max } exemplaires d'un même produit.
error-cart-too-many-lines = Une commande peut contenir au plus { $max } produits différents.
error-fix-issues = Veuillez corriger les points suivants avant de continuer :
error-out-of-stock = - { $name } est en rupture de stock.
error-not-enough-stock = - { $name } n'a que { $available } en stock, mais vous en avez choisi { $requested }.
error-product-gone = - { $name } n'est plus disponible.
error-product-id-gone = - Le produit n° { $id } n'est plus disponible.
error-prices-changed = Les prix ont changé. Veuillez vérifier votre commande.
error-currency-unavailable = La devise { $currency } n’est pas proposée pour le moment : choisis-en une autre et réessaie.
error-blocked = Nous ne pouvons pas accepter cette commande. Veuillez contacter le support.
error-still-placing = Votre commande est encore en cours de création. Réessayez dans un instant.
error-payment-failed = Le paiement a échoué.
error-cannot-cancel = Cette commande ne peut plus être annulée.
error-cancel-unavailable = Le paiement n'a pas pu être annulé pour le moment. Réessayez dans un instant.
error-paid-cannot-cancel = Cette commande a été payée et ne peut plus être annulée.
error-too-many-streams = Trop de connexions de mise à jour en direct ouvertes. Fermez quelques onglets et réessayez.
error-streams-busy = Les mises à jour en direct sont saturées pour le moment ; la page se rafraîchit d'elle-même.

## Codes promo

error-promo-invalid = Code promo non valide
error-promo-inactive = Ce code promo n'est plus actif.
error-promo-expired = Ce code promo a expiré.
error-promo-used-up = Ce code promo a atteint sa limite d'utilisation.
error-promo-already-used = Vous avez déjà utilisé ce code promo.
error-promo-need-code = Saisissez un code promo.
error-promo-need-discord = Liez Discord pour utiliser ce code : chaque code promo s'utilise une fois par compte Discord.
error-promo-need-both = Saisissez un code promo et liez Discord.

## Roblox et Discord

error-roblox-failed = Erreur de connexion à Roblox.
error-discord-no-user-id = La connexion Discord a échoué : aucun identifiant d'utilisateur reçu.
error-discord-code-refused = La connexion Discord a échoué : l'autorisation a expiré. Veuillez lier Discord à nouveau.
error-discord-failed = Erreur de connexion à Discord.
error-discord-unusable = La connexion Discord a échoué : Discord a envoyé un nom de compte ou une image que la boutique ne peut pas utiliser. Réessayez, ou demandez-nous de l'aide dans le chat en direct.

## The values a shopper types

error-email-invalid = Saisissez une adresse e-mail valide.
error-password-too-short = Le mot de passe doit contenir au moins 8 caractères.
error-password-too-long = Le mot de passe peut contenir au plus 128 caractères.
error-password-enter = Saisissez votre mot de passe.
error-name-empty = Le nom est obligatoire.
error-name-too-long = Le nom peut contenir au plus 100 caractères.
error-name-control = Le nom ne peut pas contenir de sauts de ligne ni d'autres caractères de contrôle.
error-name-web-address = Le nom ne peut pas contenir d'adresse web.
error-roblox-enter = Saisissez votre nom d'utilisateur Roblox.
error-roblox-length = Un nom d'utilisateur Roblox doit contenir de 3 à 20 caractères.
error-roblox-characters = Un nom d'utilisateur Roblox ne peut contenir que des lettres, des chiffres et un tiret bas.
error-roblox-underscores = Un nom d'utilisateur Roblox peut contenir au plus un tiret bas.
error-roblox-underscore-edge = Un nom d'utilisateur Roblox ne peut ni commencer ni finir par un tiret bas.
error-roblox-not-found = Utilisateur Roblox introuvable.

## Checkout's refusals of caps, keys and drops
error-too-many-pending = Vous avez déjà { $max } commandes non payées { $by ->
        [account] sur ce compte Discord
        [session] dans ce navigateur
       *[address] depuis cette adresse réseau
    }. Payez ou annulez-en une avant d'en passer une autre.
error-account-cap = { $name } est limité à { $max } par compte, et { $by ->
        [discord] votre compte Discord
        [account] votre compte de la boutique
       *[browser] ce navigateur
    } en détient déjà { $held }.
error-key-reused = Cette Idempotency-Key a servi pour une autre commande. Utilisez une nouvelle clé pour une nouvelle commande.
error-key-closed = La commande n° { $order } { $status ->
        [cancelled] a été annulée
        [expired] a expiré
       *[closed] est close
    } : plus rien n'est réservé pour elle. Lancez un nouveau paiement pour passer une nouvelle commande.
error-not-released = Cet article sort le { $at } : { $name } n'est pas encore en vente.

## The help chat's refusals

error-chat-ended = Cette conversation est terminée.
error-chat-agent-joined = Un autre membre de l'équipe a déjà rejoint cette discussion.
error-chat-no-agent-asked = Cette discussion n'a pas demandé de membre de l'équipe.
error-chat-agent-requested = Un membre de l'équipe a déjà été demandé pour cette discussion.
error-chat-join-first = Rejoignez la discussion avant de répondre.
error-chat-not-now = Cette action n'est pas possible dans l'état actuel de la discussion.
error-message-empty = Le message ne peut pas être vide.
error-message-too-long = Le message peut contenir au plus 2000 caractères.

## The buyer's steps on the order page, and its messages

error-ready-not-waiting = Seule une commande payée en attente de livraison peut être marquée prête.
error-ready-held = Nous vérifions ce paiement avant la livraison. Vous n'avez rien à faire.
error-ready-not-claimed = Personne de l'équipe n'a encore pris votre commande. Quand quelqu'un le fera, son serveur privé s'affichera ici : rejoignez-le, puis appuyez sur ce bouton.
error-ready-already = L'équipe sait déjà que vous êtes dans le jeu.
error-received-already = Vous nous avez déjà dit avoir reçu vos objets.
error-received-not-delivered = Vous pourrez confirmer vos objets une fois que l'équipe aura marqué la commande comme livrée.
error-messages-not-paid = Les messages s'ouvrent une fois la commande payée.
# $days: how many days after the delivery the messages stay open
error-messages-after-delivery = Les messages d'une commande se ferment { $days } jours après sa livraison. Demandez-nous dans le chat d'aide.
error-messages-closed = Cette commande n'accepte plus de messages. Demandez-nous dans le chat d'aide.
