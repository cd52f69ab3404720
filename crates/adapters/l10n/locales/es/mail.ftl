# Los correos a los compradores sobre su pedido.

mail-subject-receipt = Tu recibo de { $shop } del pedido #{ $id }
mail-subject-delivered = Tu pedido #{ $id } de { $shop } ha sido entregado
mail-subject-refunded = Tu pedido #{ $id } de { $shop } ha sido reembolsado
mail-subject-claimed = El equipo te espera en el juego (pedido #{ $id })
mail-subject-released = Tu pedido #{ $id } de { $shop } vuelve a la cola
mail-subject-no-show = Se acabó tu tiempo para unirte (pedido #{ $id })

## El resumen del pedido

mail-subtotal = Subtotal
mail-discount = Descuento
mail-fee = Comisión de pago
mail-total = Total
mail-total-of-record = En la moneda de la tienda
mail-about = ≈ { $amount }
mail-roblox-username = Usuario de Roblox

## Frases de varios correos

mail-your-order = Tu pedido
mail-your-order-page = la página de tu pedido
mail-paste-link = O pega este enlace en tu navegador: { $link }
mail-the-staff = El miembro del equipo
mail-a-staff = Un miembro del equipo
mail-no-reason = sin motivo indicado
mail-help-discord-text = Responde a este correo o pregunta en nuestro servidor de Discord: { $invite }
mail-help-discord-html = Responde a este correo o pregunta en { $server } ({ $invite }).
mail-help-discord-server = nuestro servidor de Discord
mail-help-chat = Responde a este correo o abre el chat de ayuda en la tienda.

## El recibo

mail-receipt-thanks = ¡Gracias por tu pedido!
mail-receipt-paid = El pedido #{ $id } está pagado.
mail-next-heading = Qué pasa ahora:
mail-receipt-we-mail = Te escribimos cuando el equipo te esté esperando y cuando se haya entregado.
mail-follow-order = Sigue tu pedido (sin iniciar sesión; no compartas este enlace):
mail-follow-order-link = Sigue tu pedido
mail-follow-order-aside = (sin iniciar sesión; no compartas este enlace)

## Entregado

mail-delivered-done = Buenas noticias: el pedido #{ $id } se entregó a { $roblox } en Roblox.
mail-delivered-picture = Una imagen de la entrega: { $picture }
mail-delivered-picture-link = Ver una imagen de la entrega
mail-delivered-got-text = ¿Lo recibiste todo? Pulsa "Recibí mis objetos" en la página de tu pedido: { $link }
mail-delivered-got-html = ¿Lo recibiste todo? Pulsa "Recibí mis objetos" en { $page } ({ $link }).
mail-delivered-steps-heading = Los pasos de tu pedido:
mail-delivered-review = ¿Contento? Deja una reseña en la misma página: ayuda a otros jugadores a encontrarnos.
mail-delivered-missing = ¿Falta algo? { $help }

## Reembolsado

mail-refunded = El pedido #{ $id } ha sido reembolsado: { $total } vuelve al medio con el que pagaste. Los bancos suelen mostrarlo en un plazo de 5 a 10 días.

## Un miembro del equipo tomó el pedido

mail-claimed = { $staff } está listo para entregar el pedido #{ $id } a { $roblox } y te espera en el juego.
mail-claimed-open-text = Abre la página de tu pedido para ver el enlace del servidor privado, únete y pulsa "Estoy en el juego":
mail-claimed-open-html = { $open } para ver el enlace del servidor privado, únete y pulsa "Estoy en el juego".
mail-claimed-open-link = Abre la página de tu pedido

## Un miembro del equipo devolvió el pedido a la cola

mail-released-text = { $staff } no pudo entregar el pedido #{ $id } esta vez y lo devolvió a la cola: "{ $reason }"
mail-released-html = { $staff } no pudo entregar el pedido #{ $id } esta vez y lo devolvió a la cola: { $reason }
mail-released-next-text = No se pierde nada: tu pedido conserva su lugar según el pago, y el siguiente miembro del equipo lo tomará. Cuando lo haga, la página de tu pedido volverá a mostrar su servidor privado: únete y pulsa "Estoy en el juego".
mail-released-next-html = No se pierde nada: tu pedido conserva su lugar según el pago, y el siguiente miembro del equipo lo tomará. Cuando lo haga, { $page } volverá a mostrar su servidor privado: únete y pulsa "Estoy en el juego".

## Se acabó el tiempo del comprador para unirse

mail-no-show-text = { $staff } lleva { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    } esperándote en el juego para entregar el pedido #{ $id }. Únete ahora a su servidor privado (el enlace está en la página de tu pedido) y pulsa "Estoy en el juego". Si no puedes, dilo en la página del pedido: si no, { $staff } podría devolver tu pedido a la cola, y se retomará más tarde.
mail-no-show-html = { $staff } lleva { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    } esperándote en el juego para entregar el pedido #{ $id }.
mail-no-show-join-html = Únete ahora a su servidor privado (el enlace está en { $page }) y pulsa "Estoy en el juego". Si no puedes, dilo en la página del pedido: si no, podría devolver tu pedido a la cola, y se retomará más tarde.

## Los pasos después del pago

mail-step-done = hecho
mail-step-discord = Únete a nuestro servidor de Discord
mail-step-discord-detail = { $tickets ->
        [yes] Usa la cuenta de Discord que vinculaste al pagar: allí se abre el ticket de tu pedido y el equipo puede contactarte.
       *[no] Usa la cuenta de Discord que vinculaste al pagar, para que el equipo pueda contactarte allí.
    }
mail-step-wait = Espera a un miembro del equipo
mail-step-wait-detail = El equipo atiende los pedidos en el orden en que se pagaron; la página de tu pedido muestra tu lugar en la cola. La entrega suele tardar menos de { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.
mail-step-join = Únete a su servidor privado
mail-step-join-detail = Cuando tomen tu pedido, la página de tu pedido mostrará el enlace a su servidor privado en Grow a Garden: únete con tu cuenta de Roblox.
mail-step-ready = Pulsa “Estoy en el juego”
mail-step-ready-detail = En la página de tu pedido, cuando estés en su servidor, para que sepan que estás allí.
mail-step-receive = Recibe tus objetos
mail-step-receive-detail = Acepta su intercambio en el juego. Te escribimos cuando se haya entregado.
mail-step-review = Deja una reseña
mail-step-review-detail = Cuenta a otros jugadores cómo te fue, en la página de tu pedido.

## The account's mail

mail-subject-signup-code = Tu código de verificación de { $shop }
mail-subject-password-reset = Restablece tu contraseña de { $shop }
mail-subject-signup-attempt = Alguien intentó registrarse en { $shop } con tu dirección
mail-hi = Hola, { $name }:
mail-code-is = Tu código de verificación de { $shop } es { $code }
mail-code-is-html = Tu código de verificación de { $shop } es
mail-code-enter = Escríbelo en la página de verificación para terminar de crear tu cuenta. Caduca en 15 minutos.
mail-code-not-you = Si no te registraste en { $shop }, puedes ignorar este correo.
mail-reset-asked = Alguien pidió restablecer la contraseña de tu cuenta de { $shop }.
mail-reset-open = Abre este enlace para elegir una nueva:
mail-reset-link = Elegir una contraseña nueva
mail-reset-once = El enlace funciona una sola vez y caduca en 60 minutos. Si no lo pediste, ignora este correo: tu contraseña sigue igual.
mail-attempt = Alguien pidió crear una cuenta de { $shop } con esta dirección de correo, pero ya tienes una. No se creó ninguna cuenta nueva.
mail-attempt-reset-text = Si fuiste tú y olvidaste tu contraseña, elige una nueva aquí:
mail-attempt-reset-html = Si fuiste tú y olvidaste tu contraseña, { $choose } ({ $link }).
mail-attempt-choose = elige una nueva
mail-attempt-not-you = Si no fuiste tú, ignora este correo: tu cuenta sigue igual.
