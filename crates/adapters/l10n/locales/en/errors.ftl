# The API's error messages (the `message` of every error body and the 422s' field messages).

## Every request

error-internal = Something went wrong on our side. Please try again.
error-database-unavailable = The shop cannot reach its database right now. Please try again in a moment.
error-sessions-unavailable = The shop cannot reach its session store right now. Please try again in a moment.
error-not-found = Not found.
error-method-not-allowed = This method is not allowed here.
error-cross-site = Cross-site request refused.
error-log-in = Please log in.
error-too-many-seconds = Too many attempts. Try again in { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
error-too-many-minutes = Too many attempts. Try again in { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }.

## The request's body and fields ($field: the field's name, as the request spells it)

error-and-more-errors = { $first } (and more errors)
error-field-required = The { $field } field is required.
error-field-unexpected = The { $field } field is not expected.
error-field-twice = The { $field } field is given more than once.
error-invalid-value = The request has an invalid value: { $detail }
error-body-not-json = The request body must be JSON (Content-Type: application/json).
error-body-too-large = The request body is larger than { $limit } bytes.
error-body-invalid-json = The request body is not valid JSON.
error-body-unreadable = The request body could not be read.
error-query-unreadable = The query string could not be read.
error-multipart = The request body must be multipart/form-data.
error-upload-unreadable = The upload could not be read.

## Accounts

error-invalid-credentials = Invalid email or password.
error-code-wait = Please wait { $seconds } seconds before asking for a new code.
error-mail-unavailable = We could not send the e-mail right now. Please try again in a moment.
error-too-many-codes = Too many wrong codes. Ask for a new code.
error-code-invalid = Invalid code. Please try again.
error-code-expired = This code has expired. Ask for a new one.
error-language-unknown = Pick one of the languages the shop offers: en, es, pt-BR, fr or de.
error-email-taken = This e-mail is already registered.
error-reset-invalid = This reset link is invalid or has expired.
error-wrong-password = The password is not right.
error-passwords-differ = The passwords do not match.
error-open-orders = You have { $count ->
        [one] { $count } order
       *[other] { $count } orders
    } waiting for payment or delivery. You can delete your account once they are delivered or closed.

## The catalogue, the cart and checkout

error-product-not-found = Product not found.
error-order-not-found = Order not found.
error-chat-not-found = Chat not found.
error-review-not-found = Review not found.
error-cart-empty = Your cart is empty.
error-cart-too-many = You can buy at most { $max } of one product.
error-cart-too-many-lines = An order can hold at most { $max } different products.
error-fix-issues = Please fix the following issues before continuing:
error-out-of-stock = - { $name } is out of stock.
error-not-enough-stock = - { $name } has only { $available } in stock, but you selected { $requested }.
error-product-gone = - { $name } is no longer available.
error-product-id-gone = - Product #{ $id } is no longer available.
error-prices-changed = Prices have changed. Please review your order.
error-currency-unavailable = The currency { $currency } is not offered right now: pick another one and try again.
error-blocked = We can't take this order. Please contact support.
error-still-placing = Your order is still being placed. Try again in a moment.
error-payment-failed = Payment failed.
error-cannot-cancel = This order can no longer be cancelled.
error-cancel-unavailable = The payment could not be cancelled right now. Try again in a moment.
error-paid-cannot-cancel = This order has been paid and can no longer be cancelled.
error-too-many-streams = Too many open live-update connections. Close some tabs and try again.
error-streams-busy = Live updates are busy right now; the page refreshes on its own.

## Promo codes

error-promo-invalid = Invalid promo code
error-promo-inactive = This promo code is no longer active.
error-promo-expired = This promo code has expired.
error-promo-used-up = This promo code has reached its usage limit.
error-promo-already-used = You have already used this promo code.
error-promo-need-code = Enter a promo code.
error-promo-need-discord = Link Discord to use this code: each promo code is used once per Discord account.
error-promo-need-both = Enter a promo code and link Discord.

## Roblox and Discord

error-roblox-failed = Error while connecting to Roblox.
error-discord-no-user-id = Discord login failed: No user ID returned.
error-discord-code-refused = Discord login failed: the sign-in expired. Please link Discord again.
error-discord-failed = Error while connecting to Discord.
error-discord-unusable = Discord login failed: Discord sent an account name or picture the shop cannot use. Please try again, or ask us for help in the live chat.

## The values a shopper types (e-mail, password, name, Roblox username)

error-email-invalid = Please enter a valid e-mail address.
error-password-too-short = The password must be at least 8 characters.
error-password-too-long = The password may be at most 128 characters.
error-password-enter = Enter your password.
error-name-empty = The name is required.
error-name-too-long = The name may be at most 100 characters.
error-name-control = The name may not contain line breaks or other control characters.
error-name-web-address = The name may not contain a web address.
error-roblox-enter = Enter your Roblox username.
error-roblox-length = A Roblox username must be 3 to 20 characters.
error-roblox-characters = A Roblox username may only contain letters, digits and one underscore.
error-roblox-underscores = A Roblox username may contain at most one underscore.
error-roblox-underscore-edge = A Roblox username may not start or end with an underscore.
error-roblox-not-found = Roblox user not found.

## Checkout's refusals of caps, keys and drops
# $by: account (a Discord account), session (a browser) or address (a network address)
error-too-many-pending = You already have { $max } unpaid orders on this { $by ->
        [account] Discord account
        [session] browser
       *[address] network address
    }. Pay or cancel one before placing another.
# $by: discord, account (the shop account) or browser; $held: units it holds already
error-account-cap = { $name } is limited to { $max } per account, and { $by ->
        [discord] your Discord account
        [account] your shop account
       *[browser] this browser
    } already holds { $held }.
error-key-reused = This Idempotency-Key was used for a different order. Use a new key for a new order.
# $status: cancelled, expired or closed
error-key-closed = Order #{ $order } { $status ->
        [cancelled] was cancelled
        [expired] has expired
       *[closed] is closed
    }: nothing is reserved for it any more. Start a new payment to place a new order.
# $at: the drop's time, "2026-11-27 03:00 UTC"
error-not-released = This item drops at { $at }: { $name } is not on sale yet.

## The help chat's refusals (the chat's own sentences live with the assistant)

error-chat-ended = This conversation has ended.
error-chat-agent-joined = Another agent has already joined this chat.
error-chat-no-agent-asked = This chat has not asked for a live agent.
error-chat-agent-requested = A live agent has already been requested for this chat.
error-chat-join-first = Join the chat before replying.
error-chat-not-now = This action is not possible in the chat's current state.
error-message-empty = The message cannot be empty.
error-message-too-long = The message may be at most 2000 characters long.

## The buyer's steps on the order page, and its messages

error-ready-not-waiting = Only a paid order waiting for delivery can be marked ready.
error-ready-held = We're checking this payment before delivery. You don't need to do anything.
error-ready-not-claimed = No one has picked up your order yet. When a member of staff does, their private server shows here: join it, then press this.
error-ready-already = Staff already know you are in the game.
error-received-already = You already told us you got your items.
error-received-not-delivered = You can confirm your items once staff marked the order delivered.
error-messages-not-paid = Messages open once the order is paid.
# $days: how many days after the delivery the messages stay open
error-messages-after-delivery = Messages about an order close { $days } days after its delivery. Ask us in the help chat.
error-messages-closed = This order is closed for messages. Ask us in the help chat.
