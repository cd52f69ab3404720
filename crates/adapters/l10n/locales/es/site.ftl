site-logged-in = Sesión iniciada.
site-logged-out = Sesión cerrada.
site-verified = ¡Verificado y con la sesión iniciada!
site-code-sent = Enviamos un código de 6 dígitos a { $email }.
site-reset-link-sent = Si existe una cuenta con ese correo, te enviamos un enlace para restablecer la contraseña.
site-password-reset = Tu contraseña se restableció. Ya puedes iniciar sesión.
site-chat-ended = Chat terminado.
site-discord-unlinked = Discord desvinculado.
