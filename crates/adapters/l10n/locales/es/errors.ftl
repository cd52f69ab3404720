# Mensajes de error de la API.

## Todas las peticiones

error-internal = Algo salió mal de nuestro lado. Inténtalo de nuevo.
error-database-unavailable = La tienda no puede acceder a su base de datos en este momento. Inténtalo de nuevo en un momento.
error-sessions-unavailable = La tienda no puede acceder a sus sesiones en este momento. Inténtalo de nuevo en un momento.
error-not-found = No encontrado.
error-method-not-allowed = Este método no está permitido aquí.
error-cross-site = Se rechazó una petición de otro sitio.
error-log-in = Inicia sesión.
error-too-many-seconds = Demasiados intentos. Vuelve a intentarlo en { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    }.
error-too-many-minutes = Demasiados intentos. Vuelve a intentarlo en { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.

## El cuerpo y los campos de la petición

error-and-more-errors = { $first } (y más errores)
error-field-required = El campo { $field } es obligatorio.
error-field-unexpected = El campo { $field } no se esperaba.
error-field-twice = El campo { $field } aparece más de una vez.
error-invalid-value = La petición tiene un valor no válido: { $detail }
error-body-not-json = El cuerpo de la petición debe ser JSON (Content-Type: application/json).
error-body-too-large = El cuerpo de la petición supera los { $limit } bytes.
error-body-invalid-json = El cuerpo de la petición no es JSON válido.
error-body-unreadable = No se pudo leer el cuerpo de la petición.
error-query-unreadable = No se pudo leer la cadena de consulta.
error-multipart = El cuerpo de la petición debe ser multipart/form-data.
error-upload-unreadable = No se pudo leer el archivo subido.

## Cuentas

error-invalid-credentials = Correo o contraseña incorrectos.
error-code-wait = Espera { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    } antes de pedir un código nuevo.
error-mail-unavailable = No pudimos enviar el correo ahora. Inténtalo de nuevo en un momento.
error-too-many-codes = Demasiados códigos incorrectos. Pide un código nuevo.
error-code-invalid = Código no válido. Inténtalo de nuevo.
error-code-expired = Este código ha caducado. Pide uno nuevo.
error-language-unknown = Elige uno de los idiomas que ofrece la tienda: en, es, pt-BR, fr o de.
error-email-taken = Este correo ya está registrado.
error-reset-invalid = Este enlace para restablecer la contraseña no es válido o ha caducado.
error-wrong-password = La contraseña no es correcta.
error-passwords-differ = Las contraseñas no coinciden.
error-open-orders = Tienes { $count ->
        [one] { $count } pedido
       *[other] { $count } pedidos
    } pendientes de pago o de entrega. Podrás eliminar tu cuenta cuando se hayan entregado o cerrado.

## El catálogo, el carrito y el pago

error-product-not-found = Producto no encontrado.
error-order-not-found = Pedido no encontrado.
error-chat-not-found = Chat no encontrado.
error-review-not-found = Reseña no encontrada.
error-cart-empty = Tu carrito está vacío.
error-cart-too-many = Puedes comprar como máximo { $max } unidades de un producto.
error-cart-too-many-lines = Un pedido puede tener como máximo { $max } productos distintos.
error-fix-issues = Corrige lo siguiente antes de continuar:
error-out-of-stock = - { $name } está agotado.
error-not-enough-stock = - De { $name } solo quedan { $available } en stock, pero elegiste { $requested }.
error-product-gone = - { $name } ya no está disponible.
error-product-id-gone = - El producto #{ $id } ya no está disponible.
error-prices-changed = Los precios han cambiado. Revisa tu pedido.
error-currency-unavailable = La moneda { $currency } no está disponible ahora: elige otra e inténtalo de nuevo.
error-blocked = No podemos aceptar este pedido. Ponte en contacto con soporte.
error-still-placing = Tu pedido aún se está realizando. Inténtalo de nuevo en un momento.
error-payment-failed = El pago ha fallado.
error-cannot-cancel = Este pedido ya no se puede cancelar.
error-cancel-unavailable = No se pudo cancelar el pago en este momento. Inténtalo de nuevo en un momento.
error-paid-cannot-cancel = Este pedido ya está pagado y no se puede cancelar.
error-too-many-streams = Demasiadas conexiones de actualización en vivo abiertas. Cierra algunas pestañas e inténtalo de nuevo.
error-streams-busy = Las actualizaciones en vivo están saturadas ahora; la página se actualiza sola.

## Códigos promocionales

error-promo-invalid = Código promocional no válido
error-promo-inactive = Este código promocional ya no está activo.
error-promo-expired = Este código promocional ha caducado.
error-promo-used-up = Este código promocional ha alcanzado su límite de usos.
error-promo-already-used = Ya has usado este código promocional.
error-promo-need-code = Introduce un código promocional.
error-promo-need-discord = Vincula Discord para usar este código: cada código promocional se usa una vez por cuenta de Discord.
error-promo-need-both = Introduce un código promocional y vincula Discord.

## Roblox y Discord

error-roblox-failed = Error al conectar con Roblox.
error-discord-no-user-id = Falló el inicio de sesión con Discord: no se recibió ningún ID de usuario.
error-discord-code-refused = Falló el inicio de sesión con Discord: el acceso caducó. Vuelve a vincular Discord.
error-discord-failed = Error al conectar con Discord.
error-discord-unusable = Falló el inicio de sesión con Discord: Discord envió un nombre de cuenta o una imagen que la tienda no puede usar. Inténtalo de nuevo o pídenos ayuda en el chat en vivo.

## The values a shopper types

error-email-invalid = Escribe una dirección de correo válida.
error-password-too-short = La contraseña debe tener al menos 8 caracteres.
error-password-too-long = La contraseña puede tener como máximo 128 caracteres.
error-password-enter = Escribe tu contraseña.
error-name-empty = El nombre es obligatorio.
error-name-too-long = El nombre puede tener como máximo 100 caracteres.
error-name-control = El nombre no puede contener saltos de línea ni otros caracteres de control.
error-name-web-address = El nombre no puede contener una dirección web.
error-roblox-enter = Escribe tu nombre de usuario de Roblox.
error-roblox-length = Un nombre de usuario de Roblox debe tener de 3 a 20 caracteres.
error-roblox-characters = Un nombre de usuario de Roblox solo puede contener letras, dígitos y un guion bajo.
error-roblox-underscores = Un nombre de usuario de Roblox puede contener como máximo un guion bajo.
error-roblox-underscore-edge = Un nombre de usuario de Roblox no puede empezar ni terminar con un guion bajo.
error-roblox-not-found = Usuario de Roblox no encontrado.

## Checkout's refusals of caps, keys and drops
error-too-many-pending = Ya tienes { $max } pedidos sin pagar en { $by ->
        [account] esta cuenta de Discord
        [session] este navegador
       *[address] esta dirección de red
    }. Paga o cancela uno antes de hacer otro.
error-account-cap = { $name } está limitado a { $max } por cuenta, y { $by ->
        [discord] tu cuenta de Discord
        [account] tu cuenta de la tienda
       *[browser] este navegador
    } ya tiene { $held }.
error-key-reused = Esta Idempotency-Key se usó para otro pedido. Usa una clave nueva para un pedido nuevo.
error-key-closed = El pedido #{ $order } { $status ->
        [cancelled] se canceló
        [expired] caducó
       *[closed] está cerrado
    }: ya no tiene nada reservado. Inicia un nuevo pago para hacer un pedido nuevo.
error-not-released = Este artículo sale el { $at }: { $name } todavía no está a la venta.

## The help chat's refusals

error-chat-ended = Esta conversación ha terminado.
error-chat-agent-joined = Otra persona del equipo ya se unió a este chat.
error-chat-no-agent-asked = Este chat no ha pedido hablar con una persona.
error-chat-agent-requested = Ya se pidió una persona del equipo para este chat.
error-chat-join-first = Únete al chat antes de responder.
error-chat-not-now = Esta acción no es posible en el estado actual del chat.
error-message-empty = El mensaje no puede estar vacío.
error-message-too-long = El mensaje puede tener como máximo 2000 caracteres.

## The buyer's steps on the order page, and its messages

error-ready-not-waiting = Solo un pedido pagado que espera la entrega puede marcarse como listo.
error-ready-held = Estamos revisando este pago antes de la entrega. No tienes que hacer nada.
error-ready-not-claimed = Nadie del equipo ha tomado tu pedido todavía. Cuando alguien lo haga, su servidor privado aparecerá aquí: únete y luego pulsa este botón.
error-ready-already = El equipo ya sabe que estás en el juego.
error-received-already = Ya nos dijiste que recibiste tus artículos.
error-received-not-delivered = Podrás confirmar tus artículos cuando el equipo marque el pedido como entregado.
error-messages-not-paid = Los mensajes se abren cuando el pedido está pagado.
# $days: how many days after the delivery the messages stay open
error-messages-after-delivery = Los mensajes de un pedido se cierran { $days } días después de su entrega. Pregúntanos en el chat de ayuda.
error-messages-closed = Este pedido ya no admite mensajes. Pregúntanos en el chat de ayuda.
