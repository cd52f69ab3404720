# The buyers' mail about their order ($shop: the shop's name, $id: the order's number).

mail-subject-receipt = Your { $shop } receipt for order #{ $id }
mail-subject-delivered = Your { $shop } order #{ $id } has been delivered
mail-subject-refunded = Your { $shop } order #{ $id } has been refunded
mail-subject-claimed = Staff are waiting for you in the game (order #{ $id })
mail-subject-released = Your { $shop } order #{ $id } is back in line
mail-subject-no-show = Your time to join is up (order #{ $id })

## The order's summary

mail-subtotal = Subtotal
mail-discount = Discount
mail-fee = Processing fee
mail-total = Total
# The total of record in the shop's own currency, when the buyer paid in another
# ($amount: that total, e.g. "US$ 10.75").
mail-total-of-record = In the shop's currency
mail-about = ≈ { $amount }
mail-roblox-username = Roblox username

## Said in several mails

mail-your-order = Your order
mail-your-order-page = your order page
mail-paste-link = Or paste this link into your browser: { $link }
mail-the-staff = The member of staff
mail-a-staff = A member of staff
mail-no-reason = no reason given
mail-help-discord-text = Reply to this e-mail or ask in our Discord server: { $invite }
# $server: "our Discord server" (mail-help-discord-server) as a link
mail-help-discord-html = Reply to this e-mail or ask in { $server } ({ $invite }).
mail-help-discord-server = our Discord server
mail-help-chat = Reply to this e-mail or open the help chat in the shop.

## The receipt

mail-receipt-thanks = Thank you for your order!
mail-receipt-paid = Order #{ $id } is paid.
mail-next-heading = What happens next:
mail-receipt-we-mail = We e-mail you when staff are waiting for you and once it's delivered.
mail-follow-order = Follow your order (no login needed; keep this link to yourself):
mail-follow-order-link = Follow your order
mail-follow-order-aside = (no login needed; keep this link to yourself)

## Delivered

mail-delivered-done = Good news: order #{ $id } has been delivered to { $roblox } in Roblox.
mail-delivered-picture = A picture of the delivery: { $picture }
mail-delivered-picture-link = See a picture of the delivery
mail-delivered-got-text = Got everything? Press "I got my items" on your order page: { $link }
# $page: "your order page" (mail-your-order-page) as a link
mail-delivered-got-html = Got everything? Press "I got my items" on { $page } ({ $link }).
mail-delivered-steps-heading = Your order's steps:
mail-delivered-review = Happy with it? Leave a review on the same page: it helps other players find us.
mail-delivered-missing = Something missing? { $help }

## Refunded ($total: the amount refunded)

mail-refunded = Order #{ $id } has been refunded: { $total } goes back to the way you paid. Banks usually show it within 5 to 10 days.

## A member of staff took the order

mail-claimed = { $staff } is ready to deliver order #{ $id } to { $roblox } and is waiting for you in the game.
mail-claimed-open-text = Open your order page for the private server link, join it and press "I'm in the game":
# $open: "Open your order page" (mail-claimed-open-link) as a link
mail-claimed-open-html = { $open } for the private server link, join it and press "I'm in the game".
mail-claimed-open-link = Open your order page

## A member of staff put the order back in line

mail-released-text = { $staff } could not deliver order #{ $id } this time and put it back in line: "{ $reason }"
mail-released-html = { $staff } could not deliver order #{ $id } this time and put it back in line: { $reason }
mail-released-next-text = Nothing is lost: your order keeps its place by payment, and the next member of staff picks it up. When they do, your order page shows their private server again: join it, then press "I'm in the game".
mail-released-next-html = Nothing is lost: your order keeps its place by payment, and the next member of staff picks it up. When they do, { $page } shows their private server again: join it, then press "I'm in the game".

## The buyer's time to join ran out

mail-no-show-text = { $staff } has been waiting { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } for you in the game to deliver order #{ $id }. Join their private server now (the link is on your order page) and press "I'm in the game". If you can't make it, say so on the order page: { $staff } may otherwise put your order back in line, and it will be picked up again later.
mail-no-show-html = { $staff } has been waiting { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } for you in the game to deliver order #{ $id }.
mail-no-show-join-html = Join their private server now (the link is on { $page }) and press "I'm in the game". If you can't make it, say so on the order page: they may otherwise put your order back in line, and it will be picked up again later.

## The steps after payment (the delivery script; $minutes: the shop's promise)

mail-step-done = done
mail-step-discord = Join our Discord server
mail-step-discord-detail = { $tickets ->
        [yes] Use the Discord account you linked at checkout: your order's ticket opens there, and staff can reach you in it.
       *[no] Use the Discord account you linked at checkout, so staff can reach you there.
    }
mail-step-wait = Wait for a member of staff
mail-step-wait-detail = Staff take orders in the order they were paid; your order page shows your place in line. Delivery usually takes under { $minutes } minutes.
mail-step-join = Join their private server
mail-step-join-detail = When they take your order, your order page shows the link to their private server in Grow a Garden: join it with your Roblox account.
mail-step-ready = Press “I'm in the game”
mail-step-ready-detail = On your order page, once you are in their server, so they know you are there.
mail-step-receive = Receive your items
mail-step-receive-detail = Accept their trade in the game. We e-mail you once it is delivered.
mail-step-review = Leave a review
mail-step-review-detail = Tell other players how it went, on your order page.

## The account's mail ($shop: the shop's name, $name: the account's name)

mail-subject-signup-code = Your { $shop } verification code
mail-subject-password-reset = Reset your { $shop } password
mail-subject-signup-attempt = Someone tried to register at { $shop } with your address
mail-hi = Hi { $name },
mail-code-is = Your { $shop } verification code is { $code }
mail-code-is-html = Your { $shop } verification code is
mail-code-enter = Enter it on the verification page to finish creating your account. It expires in 15 minutes.
mail-code-not-you = If you did not sign up at { $shop }, you can ignore this e-mail.
mail-reset-asked = Someone asked to reset the password of your { $shop } account.
mail-reset-open = Open this link to choose a new one:
mail-reset-link = Choose a new password
mail-reset-once = The link works once and expires in 60 minutes. If you did not ask, ignore this e-mail: your password stays as it is.
mail-attempt = Someone asked to create a { $shop } account with this e-mail address, but you already have one. No new account was made.
mail-attempt-reset-text = If it was you and you forgot your password, choose a new one here:
# $choose: "choose a new one" (mail-attempt-choose) as a link
mail-attempt-reset-html = If it was you and you forgot your password, { $choose } ({ $link }).
mail-attempt-choose = choose a new one
mail-attempt-not-you = If it was not you, ignore this e-mail: your account stays as it is.
