site-logged-in = Você entrou.
site-logged-out = Você saiu.
site-verified = Verificado e conectado!
site-code-sent = Enviamos um código de 6 dígitos para { $email }.
site-reset-link-sent = Se existir uma conta com esse e-mail, enviamos um link para redefinir a senha.
site-password-reset = Sua senha foi redefinida. Agora você pode entrar.
site-chat-ended = Conversa encerrada.
site-discord-unlinked = Discord desvinculado.
