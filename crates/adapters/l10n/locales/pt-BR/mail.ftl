# Os e-mails aos compradores sobre o pedido.

mail-subject-receipt = Seu recibo da { $shop } do pedido #{ $id }
mail-subject-delivered = Seu pedido #{ $id } da { $shop } foi entregue
mail-subject-refunded = Seu pedido #{ $id } da { $shop } foi reembolsado
mail-subject-claimed = A equipe está esperando você no jogo (pedido #{ $id })
mail-subject-released = Seu pedido #{ $id } da { $shop } voltou para a fila
mail-subject-no-show = Seu tempo para entrar acabou (pedido #{ $id })

## O resumo do pedido

mail-subtotal = Subtotal
mail-discount = Desconto
mail-fee = Taxa de processamento
mail-total = Total
mail-total-of-record = Na moeda da loja
mail-about = ≈ { $amount }
mail-roblox-username = Usuário do Roblox

## Frases de vários e-mails

mail-your-order = Seu pedido
mail-your-order-page = página do seu pedido
mail-paste-link = Ou cole este link no seu navegador: { $link }
mail-the-staff = O membro da equipe
mail-a-staff = Um membro da equipe
mail-no-reason = nenhum motivo informado
mail-help-discord-text = Responda a este e-mail ou pergunte no nosso servidor do Discord: { $invite }
mail-help-discord-html = Responda a este e-mail ou pergunte no { $server } ({ $invite }).
mail-help-discord-server = nosso servidor do Discord
mail-help-chat = Responda a este e-mail ou abra o chat de ajuda na loja.

## O recibo

mail-receipt-thanks = Obrigado pelo seu pedido!
mail-receipt-paid = O pedido #{ $id } está pago.
mail-next-heading = O que acontece agora:
mail-receipt-we-mail = Avisamos por e-mail quando a equipe estiver esperando você e quando for entregue.
mail-follow-order = Acompanhe seu pedido (sem login; não compartilhe este link):
mail-follow-order-link = Acompanhe seu pedido
mail-follow-order-aside = (sem login; não compartilhe este link)

## Entregue

mail-delivered-done = Boa notícia: o pedido #{ $id } foi entregue a { $roblox } no Roblox.
mail-delivered-picture = Uma foto da entrega: { $picture }
mail-delivered-picture-link = Ver uma foto da entrega
mail-delivered-got-text = Recebeu tudo? Toque em "Recebi meus itens" na página do seu pedido: { $link }
mail-delivered-got-html = Recebeu tudo? Toque em "Recebi meus itens" na { $page } ({ $link }).
mail-delivered-steps-heading = As etapas do seu pedido:
mail-delivered-review = Gostou? Deixe uma avaliação na mesma página: isso ajuda outros jogadores a nos encontrar.
mail-delivered-missing = Faltou algo? { $help }

## Reembolsado

mail-refunded = O pedido #{ $id } foi reembolsado: { $total } volta para a forma de pagamento usada. Os bancos costumam mostrar em 5 a 10 dias.

## Um membro da equipe pegou o pedido

mail-claimed = { $staff } está pronto para entregar o pedido #{ $id } a { $roblox } e está esperando você no jogo.
mail-claimed-open-text = Abra a página do seu pedido para ver o link do servidor privado, entre e toque em "Estou no jogo":
mail-claimed-open-html = { $open } para ver o link do servidor privado, entre e toque em "Estou no jogo".
mail-claimed-open-link = Abra a página do seu pedido

## Um membro da equipe devolveu o pedido à fila

mail-released-text = { $staff } não conseguiu entregar o pedido #{ $id } desta vez e o devolveu à fila: "{ $reason }"
mail-released-html = { $staff } não conseguiu entregar o pedido #{ $id } desta vez e o devolveu à fila: { $reason }
mail-released-next-text = Nada se perde: seu pedido mantém o lugar pela ordem de pagamento, e o próximo membro da equipe vai pegá-lo. Quando isso acontecer, a página do seu pedido mostrará de novo o servidor privado: entre nele e toque em "Estou no jogo".
mail-released-next-html = Nada se perde: seu pedido mantém o lugar pela ordem de pagamento, e o próximo membro da equipe vai pegá-lo. Quando isso acontecer, a { $page } mostrará de novo o servidor privado: entre nele e toque em "Estou no jogo".

## O tempo do comprador para entrar acabou

mail-no-show-text = { $staff } está esperando você há { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    } no jogo para entregar o pedido #{ $id }. Entre agora no servidor privado (o link está na página do seu pedido) e toque em "Estou no jogo". Se não puder, avise na página do pedido: caso contrário, { $staff } pode devolver seu pedido à fila, e ele será retomado mais tarde.
mail-no-show-html = { $staff } está esperando você há { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    } no jogo para entregar o pedido #{ $id }.
mail-no-show-join-html = Entre agora no servidor privado (o link está na { $page }) e toque em "Estou no jogo". Se não puder, avise na página do pedido: caso contrário, o pedido pode voltar para a fila, e ele será retomado mais tarde.

## As etapas depois do pagamento

mail-step-done = feito
mail-step-discord = Entre no nosso servidor do Discord
mail-step-discord-detail = { $tickets ->
        [yes] Use a conta do Discord que você vinculou no pagamento: o ticket do seu pedido abre lá, e a equipe pode falar com você nele.
       *[no] Use a conta do Discord que você vinculou no pagamento, para que a equipe possa falar com você lá.
    }
mail-step-wait = Aguarde um membro da equipe
mail-step-wait-detail = A equipe atende os pedidos na ordem em que foram pagos; a página do seu pedido mostra sua posição na fila. A entrega costuma levar menos de { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.
mail-step-join = Entre no servidor privado
mail-step-join-detail = Quando pegarem seu pedido, a página do pedido mostra o link do servidor privado no Grow a Garden: entre com sua conta do Roblox.
mail-step-ready = Toque em “Estou no jogo”
mail-step-ready-detail = Na página do seu pedido, quando estiver no servidor, para que saibam que você está lá.
mail-step-receive = Receba seus itens
mail-step-receive-detail = Aceite a troca no jogo. Avisamos por e-mail quando for entregue.
mail-step-review = Deixe uma avaliação
mail-step-review-detail = Conte a outros jogadores como foi, na página do seu pedido.

## The account's mail

mail-subject-signup-code = Seu código de verificação da { $shop }
mail-subject-password-reset = Redefina sua senha da { $shop }
mail-subject-signup-attempt = Alguém tentou se cadastrar na { $shop } com o seu endereço
mail-hi = Olá, { $name }!
mail-code-is = Seu código de verificação da { $shop } é { $code }
mail-code-is-html = Seu código de verificação da { $shop } é
mail-code-enter = Digite-o na página de verificação para terminar de criar sua conta. Ele expira em 15 minutos.
mail-code-not-you = Se você não se cadastrou na { $shop }, pode ignorar este e-mail.
mail-reset-asked = Alguém pediu para redefinir a senha da sua conta da { $shop }.
mail-reset-open = Abra este link para escolher uma nova:
mail-reset-link = Escolher uma nova senha
mail-reset-once = O link funciona uma única vez e expira em 60 minutos. Se não foi você quem pediu, ignore este e-mail: sua senha continua a mesma.
mail-attempt = Alguém pediu para criar uma conta da { $shop } com este endereço de e-mail, mas você já tem uma. Nenhuma conta nova foi criada.
mail-attempt-reset-text = Se foi você e esqueceu sua senha, escolha uma nova aqui:
mail-attempt-reset-html = Se foi você e esqueceu sua senha, { $choose } ({ $link }).
mail-attempt-choose = escolha uma nova
mail-attempt-not-you = Se não foi você, ignore este e-mail: sua conta continua a mesma.
