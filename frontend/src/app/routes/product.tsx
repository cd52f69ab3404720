import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ArrowLeftIcon, SearchIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { StateMessage } from '@/components/ui/state-message';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { useProducts } from '@/features/catalog/api/get-products';
import { ProductDetails } from '@/features/catalog/components/product-details';
import { ProductDetailsSkeleton } from '@/features/catalog/components/product-details-skeleton';
import { useAddToCart } from '@/features/cart/hooks/use-add-to-cart';
import { useSyncHoldings } from '@/features/cart/hooks/use-sync-holdings';
import {
  checkAddable,
  dropCaps,
  selectQuantityOf,
  unitsInCart,
  useCartStore,
  type CartItem,
  type Holdings,
} from '@/features/cart/stores/cart-store';
import type { CheckoutNotice } from '@/features/checkout/components/checkout-view';
import { LinkDiscordBeforeDrop } from '@/features/checkout/components/link-discord-before-drop';
import { Notice } from '@/features/checkout/components/notice';
import { ProductRating } from '@/features/reviews/components/product-rating';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';
import { isUpcomingDrop } from '@/lib/drop';
import type { HoldingNote } from '@/features/catalog/components/product-details';
import type { Product } from '@/types/api';

import './product.css';

/** What /discord/callback hands back to this page (a link started from a drop's prompt). */
export type ProductLocationState = { discordNotice?: CheckoutNotice } | null;

function includedIn(product: Product, products: readonly Product[]): Product[] {
  return product.related_ids.flatMap((id) => products.find((item) => item.id === id) ?? []);
}

/** The capped products one of `product` takes: itself, and the drops a bundle holds. */
function dropsTaken(product: Product, included: readonly Product[]): Product[] {
  return [product, ...included.filter((item) => item.id !== product.id)].filter(
    (item) => item.max_per_account,
  );
}

/**
 * "You already have N of M" for each drop the product takes, N what the buyer's orders hold (the
 * server's count) plus what the cart holds; `full` on the drop that refuses one more.
 */
function holdingNotes(
  product: Product,
  drops: readonly Product[],
  { items, held, refusedDrop }: { items: CartItem[]; held: Holdings; refusedDrop: number | null },
): HoldingNote[] {
  return drops.flatMap((drop) => {
    const inCart = unitsInCart(drop.id, items);
    const total = (held.get(drop.id) ?? 0) + inCart;
    const full = refusedDrop === drop.id;
    if (total === 0 && !full) return [];
    const values = {
      total,
      max: drop.max_per_account ?? 0,
      name: drop.name,
      inCart: inCart > 0 ? i18next.t('product.inCartNote', { count: inCart }) : '',
    };
    let text: string;
    if (drop.id === product.id) {
      text = full
        ? i18next.t('product.holdingOwnFull', values)
        : i18next.t('product.holdingOwn', values);
    } else {
      text = full
        ? i18next.t('product.holdingOtherFull', values)
        : i18next.t('product.holdingOther', values);
    }
    return [{ id: drop.id, text, full }];
  });
}

/** The Discord link's outcome, shown once: a reload or a Back does not repeat it. */
function useDiscordNotice(): CheckoutNotice | undefined {
  const navigate = useNavigate();
  const location = useLocation();
  const [discordNotice] = useState(() => (location.state as ProductLocationState)?.discordNotice);
  useEffect(() => {
    if ((location.state as ProductLocationState)?.discordNotice) {
      void navigate('.', { replace: true, state: null });
    }
  }, [location.state, navigate]);
  return discordNotice;
}

/** What the cart and the buyer's orders hold of the product and of the drops it takes. */
function useProductHoldings(productId: number, products: Product[] | undefined) {
  const product = products?.find((item) => item.id === productId);
  const quantityInCart = useCartStore(selectQuantityOf(productId));
  const items = useCartStore((state) => state.items);
  const held = useCartStore((state) => state.held);
  const included = product && products ? includedIn(product, products) : [];
  const drops = product ? dropsTaken(product, included) : [];
  useSyncHoldings({ enabled: drops.length > 0 });
  let holdings: HoldingNote[] = [];
  if (product && products) {
    // the caps of the catalogue on show, whatever the cart has heard of them yet
    const oneMore = checkAddable(product, items, dropCaps(products), held);
    const refusedDrop = !oneMore.ok && oneMore.reason === 'account-limit' ? oneMore.drop.id : null;
    holdings = holdingNotes(product, drops, { items, held, refusedDrop });
  }
  return { product, quantityInCart, included, holdings };
}

export function ProductRoute() {
  const { t } = useTranslation();
  const params = useParams();
  const productId = Number(params.id);
  // The page reads the product from the catalogue list (docs/product.md, Screens), kept fresh like the home page.
  const products = useProducts({ refetchInterval: env.PRODUCTS_POLL_MS });
  const { product, quantityInCart, included, holdings } = useProductHoldings(
    productId,
    products.data,
  );
  const { addToCart, confirmation } = useAddToCart({ confirmWhenInCart: true });
  const navigate = useNavigate();
  const invite = useDiscordInvite();
  const discordNotice = useDiscordNotice();
  // Buy Now: into the cart (through the same confirmation), then straight to the checkout.
  const buyNow = (item: Product) =>
    addToCart(item, {
      onAdded: () => {
        useCartStore.getState().close();
        void navigate(paths.checkout.getHref());
      },
    });
  let title = t('product.pageTitle');
  if (products.data) title = product ? product.name : t('product.notFoundTitle');

  return (
    <div className="container product-page">
      <title>{t('common.pageTitle', { title })}</title>
      <Link
        to={paths.home.getHref()}
        className={buttonClassName({ variant: 'ghost', className: 'product-page__back' })}
      >
        <ArrowLeftIcon size={18} />
        {t('product.back')}
      </Link>
      {discordNotice ? (
        <Notice tone={discordNotice.tone}>
          <p>{discordNotice.message}</p>
        </Notice>
      ) : null}
      {product ? <ProductRating productId={product.id} /> : null}
      <QueryBoundary
        query={products}
        loading={<ProductDetailsSkeleton />}
        errorTitle={t('product.loadError')}
        headingLevel={1}
        keepDataOnError
      >
        {() =>
          product ? (
            <ProductDetails
              product={product}
              onAddToCart={(item) => addToCart(item)}
              onBuyNow={buyNow}
              quantityInCart={quantityInCart}
              includedProducts={included}
              holdings={holdings}
              deliveryTime={<DeliveryTime />}
              dropNotice={
                isUpcomingDrop(product) ? <LinkDiscordBeforeDrop invite={invite} /> : null
              }
            />
          ) : (
            <StateMessage
              role="status"
              headingLevel={1}
              icon={<SearchIcon size={28} />}
              title={t('product.notFound')}
              description={t('product.notFoundDescription')}
            />
          )
        }
      </QueryBoundary>
      {confirmation}
    </div>
  );
}
