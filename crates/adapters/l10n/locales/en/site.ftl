# Sentences of the API's successful answers a shopper reads.

site-logged-in = Logged in.
site-logged-out = Logged out.
site-verified = Verified and logged in!
site-code-sent = We sent a 6-digit code to { $email }.
site-reset-link-sent = If an account exists for that e-mail, we have sent a password reset link.
site-password-reset = Your password has been reset. You can now log in.
site-chat-ended = Chat ended.
site-discord-unlinked = Discord unlinked.
