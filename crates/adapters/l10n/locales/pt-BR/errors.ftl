# Mensagens de erro da API.

## Todas as requisições

error-internal = Algo deu errado do nosso lado. Tente novamente.
error-database-unavailable = A loja não consegue acessar o banco de dados agora. Tente novamente em instantes.
error-sessions-unavailable = A loja não consegue acessar as sessões agora. Tente novamente em instantes.
error-not-found = Não encontrado.
error-method-not-allowed = Este método não é permitido aqui.
error-cross-site = Requisição de outro site recusada.
error-log-in = Faça login.
error-too-many-seconds = Tentativas demais. Tente novamente em { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    }.
error-too-many-minutes = Tentativas demais. Tente novamente em { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.

## O corpo e os campos da requisição

error-and-more-errors = { $first } (e mais erros)
error-field-required = O campo { $field } é obrigatório.
error-field-unexpected = O campo { $field } não era esperado.
error-field-twice = O campo { $field } aparece mais de uma vez.
error-invalid-value = A requisição tem um valor inválido: { $detail }
error-body-not-json = O corpo da requisição deve ser JSON (Content-Type: application/json).
error-body-too-large = O corpo da requisição tem mais de { $limit } bytes.
error-body-invalid-json = O corpo da requisição não é um JSON válido.
error-body-unreadable = Não foi possível ler o corpo da requisição.
error-query-unreadable = Não foi possível ler a query string.
error-multipart = O corpo da requisição deve ser multipart/form-data.
error-upload-unreadable = Não foi possível ler o envio.

## Contas

error-invalid-credentials = E-mail ou senha inválidos.
error-code-wait = Aguarde { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    } antes de pedir um novo código.
error-mail-unavailable = Não conseguimos enviar o e-mail agora. Tente novamente em instantes.
error-too-many-codes = Códigos errados demais. Peça um novo código.
error-code-invalid = Código inválido. Tente novamente.
error-code-expired = Este código expirou. Peça um novo.
error-language-unknown = Escolha um dos idiomas que a loja oferece: en, es, pt-BR, fr ou de.
error-email-taken = Este e-mail já está cadastrado.
error-reset-invalid = Este link de redefinição é inválido ou expirou.
error-wrong-password = A senha não está correta.
error-passwords-differ = As senhas não coincidem.
error-open-orders = Você tem { $count ->
        [one] { $count } pedido
       *[other] { $count } pedidos
    } aguardando pagamento ou entrega. Você poderá excluir sua conta quando eles forem entregues ou encerrados.

## O catálogo, o carrinho e o pagamento

error-product-not-found = Produto não encontrado.
error-order-not-found = Pedido não encontrado.
error-chat-not-found = Chat não encontrado.
error-review-not-found = Avaliação não encontrada.
error-cart-empty = Seu carrinho está vazio.
error-cart-too-many = Você pode comprar no máximo { $max } unidades de um produto.
error-cart-too-many-lines = Um pedido pode ter no máximo { $max } produtos diferentes.
error-fix-issues = Corrija os itens a seguir antes de continuar:
error-out-of-stock = - { $name } está esgotado.
error-not-enough-stock = - { $name } tem apenas { $available } em estoque, mas você escolheu { $requested }.
error-product-gone = - { $name } não está mais disponível.
error-product-id-gone = - O produto #{ $id } não está mais disponível.
error-prices-changed = Os preços mudaram. Revise seu pedido.
error-currency-unavailable = A moeda { $currency } não está disponível agora: escolha outra e tente de novo.
error-blocked = Não podemos aceitar este pedido. Fale com o suporte.
error-still-placing = Seu pedido ainda está sendo feito. Tente novamente em instantes.
error-payment-failed = O pagamento falhou.
error-cannot-cancel = Este pedido não pode mais ser cancelado.
error-cancel-unavailable = Não foi possível cancelar o pagamento agora. Tente novamente em instantes.
error-paid-cannot-cancel = Este pedido já foi pago e não pode mais ser cancelado.
error-too-many-streams = Conexões de atualização ao vivo demais abertas. Feche algumas abas e tente novamente.
error-streams-busy = As atualizações ao vivo estão ocupadas agora; a página se atualiza sozinha.

## Cupons

error-promo-invalid = Cupom inválido
error-promo-inactive = Este cupom não está mais ativo.
error-promo-expired = Este cupom expirou.
error-promo-used-up = Este cupom atingiu o limite de usos.
error-promo-already-used = Você já usou este cupom.
error-promo-need-code = Digite um cupom.
error-promo-need-discord = Vincule o Discord para usar este cupom: cada cupom é usado uma vez por conta do Discord.
error-promo-need-both = Digite um cupom e vincule o Discord.

## Roblox e Discord

error-roblox-failed = Erro ao conectar com o Roblox.
error-discord-no-user-id = Falha no login com o Discord: nenhum ID de usuário foi retornado.
error-discord-code-refused = Falha no login com o Discord: o acesso expirou. Vincule o Discord novamente.
error-discord-failed = Erro ao conectar com o Discord.
error-discord-unusable = Falha no login com o Discord: o Discord enviou um nome de conta ou uma imagem que a loja não pode usar. Tente novamente ou peça ajuda no chat ao vivo.

## The values a shopper types

error-email-invalid = Digite um endereço de e-mail válido.
error-password-too-short = A senha deve ter pelo menos 8 caracteres.
error-password-too-long = A senha pode ter no máximo 128 caracteres.
error-password-enter = Digite sua senha.
error-name-empty = O nome é obrigatório.
error-name-too-long = O nome pode ter no máximo 100 caracteres.
error-name-control = O nome não pode conter quebras de linha nem outros caracteres de controle.
error-name-web-address = O nome não pode conter um endereço da web.
error-roblox-enter = Digite seu nome de usuário do Roblox.
error-roblox-length = Um nome de usuário do Roblox deve ter de 3 a 20 caracteres.
error-roblox-characters = Um nome de usuário do Roblox só pode conter letras, dígitos e um sublinhado.
error-roblox-underscores = Um nome de usuário do Roblox pode conter no máximo um sublinhado.
error-roblox-underscore-edge = Um nome de usuário do Roblox não pode começar nem terminar com sublinhado.
error-roblox-not-found = Usuário do Roblox não encontrado.

## Checkout's refusals of caps, keys and drops
error-too-many-pending = Você já tem { $max } pedidos não pagos { $by ->
        [account] nesta conta do Discord
        [session] neste navegador
       *[address] neste endereço de rede
    }. Pague ou cancele um antes de fazer outro.
error-account-cap = { $name } é limitado a { $max } por conta, e { $by ->
        [discord] sua conta do Discord
        [account] sua conta da loja
       *[browser] este navegador
    } já tem { $held }.
error-key-reused = Esta Idempotency-Key foi usada para outro pedido. Use uma chave nova para um pedido novo.
error-key-closed = O pedido #{ $order } { $status ->
        [cancelled] foi cancelado
        [expired] expirou
       *[closed] está encerrado
    }: nada mais está reservado para ele. Inicie um novo pagamento para fazer um pedido novo.
error-not-released = Este item será lançado em { $at }: { $name } ainda não está à venda.

## The help chat's refusals

error-chat-ended = Esta conversa foi encerrada.
error-chat-agent-joined = Outra pessoa da equipe já entrou nesta conversa.
error-chat-no-agent-asked = Esta conversa não pediu para falar com uma pessoa.
error-chat-agent-requested = Já foi pedida uma pessoa da equipe para esta conversa.
error-chat-join-first = Entre na conversa antes de responder.
error-chat-not-now = Esta ação não é possível no estado atual da conversa.
error-message-empty = A mensagem não pode estar vazia.
error-message-too-long = A mensagem pode ter no máximo 2000 caracteres.

## The buyer's steps on the order page, and its messages

error-ready-not-waiting = Só um pedido pago aguardando entrega pode ser marcado como pronto.
error-ready-held = Estamos verificando este pagamento antes da entrega. Você não precisa fazer nada.
error-ready-not-claimed = Ninguém da equipe pegou seu pedido ainda. Quando alguém pegar, o servidor privado aparece aqui: entre nele e depois toque neste botão.
error-ready-already = A equipe já sabe que você está no jogo.
error-received-already = Você já nos disse que recebeu seus itens.
error-received-not-delivered = Você pode confirmar seus itens depois que a equipe marcar o pedido como entregue.
error-messages-not-paid = As mensagens abrem quando o pedido estiver pago.
# $days: how many days after the delivery the messages stay open
error-messages-after-delivery = As mensagens de um pedido fecham { $days } dias após a entrega. Pergunte no chat de ajuda.
error-messages-closed = Este pedido não recebe mais mensagens. Pergunte no chat de ajuda.
