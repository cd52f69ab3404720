import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { ClockIcon, SearchIcon, ShieldIcon, SproutIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { StateMessage } from '@/components/ui/state-message';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { useProducts } from '@/features/catalog/api/get-products';
import { CategoryFilter } from '@/features/catalog/components/category-filter';
import { ProductCard } from '@/features/catalog/components/product-card';
import { ProductGrid, ProductGridSkeleton } from '@/features/catalog/components/product-grid';
import { SearchBox } from '@/features/catalog/components/search-box';
import { UpcomingDrops } from '@/features/catalog/components/upcoming-drops';
import {
  ALL_CATEGORIES,
  CATEGORIES,
  filterProducts,
  isCategory,
  matchesCategory,
  matchesSearch,
  type Category,
} from '@/features/catalog/utils/filter-products';
import { useAddToCart } from '@/features/cart/hooks/use-add-to-cart';
import { DeliveryTime } from '@/features/site/components/delivery-time';
import type { Product } from '@/types/api';

import './home.css';

/** The filters live in the address (?category=Pets&q=raccoon) so Back and shared links keep them. */
function useCatalogFilters() {
  const [params, setParams] = useSearchParams();
  const rawCategory = params.get('category');
  const category: Category = isCategory(rawCategory) ? rawCategory : ALL_CATEGORIES;
  const search = params.get('q') ?? '';

  const update = (changes: { category?: Category; search?: string }) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (changes.category !== undefined) {
          if (changes.category === ALL_CATEGORIES) next.delete('category');
          else next.set('category', changes.category);
        }
        if (changes.search !== undefined) {
          if (changes.search === '') next.delete('q');
          else next.set('q', changes.search);
        }
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  return {
    category,
    search,
    setCategory: (value: Category) => update({ category: value }),
    setSearch: (value: string) => update({ search: value }),
    clear: () => update({ category: ALL_CATEGORIES, search: '' }),
  };
}

function emptyTitle(category: Category, search: string): string {
  const query = search.trim();
  if (query && category !== ALL_CATEGORIES) return `No products match “${query}” in ${category}`;
  if (query) return `No products match “${query}”`;
  return `No products match the ${category} category right now`;
}

type ShelfProps = {
  visible: Product[];
  filtered: boolean;
  emptyTitle: string;
  onClear: () => void;
  onAddToCart: (product: Product) => void;
};

/** The products shown, or why there are none. */
function Shelf({ visible, filtered, emptyTitle, onClear, onAddToCart }: ShelfProps) {
  if (visible.length > 0) {
    return (
      <ProductGrid label="Products">
        {visible.map((product, index) => (
          <li key={product.id}>
            <ProductCard
              product={product}
              onAddToCart={onAddToCart}
              eager={index < 4}
              priority={index === 0}
            />
          </li>
        ))}
      </ProductGrid>
    );
  }
  return filtered ? (
    <StateMessage
      headingLevel={3}
      role="status"
      icon={<SearchIcon size={28} />}
      title={emptyTitle}
      description="Try another word or category, or see everything we sell."
      action={
        <Button variant="secondary" onClick={onClear}>
          Clear filters
        </Button>
      }
    />
  ) : (
    <StateMessage
      headingLevel={3}
      role="status"
      icon={<SproutIcon size={28} />}
      title="The shelves are being restocked"
      description="There is nothing for sale at this moment. This page refreshes by itself, so new stock will appear here shortly."
    />
  );
}

/** The hero: what the shop sells and its three steps. */
function HomeHero() {
  return (
    <section className="hero">
      <div className="container hero__inner">
        <div className="hero__text">
          <p className="hero__eyebrow">
            <SproutIcon size={18} /> The Grow a Garden shop
          </p>
          <h1 className="hero__title">
            Upgrade your Grow A Garden experience with affordable products!
          </h1>
          <p className="hero__lead">
            Pets, Sheckles, bundles and exclusives, handed to you in game by our staff.
          </p>
          <ul className="hero__perks">
            {/* each perk's words in one span: the flex gap falls between icon and words only */}
            <li>
              <ClockIcon size={18} />
              <span>
                Usually delivered in <DeliveryTime />
              </span>
            </li>
            <li>
              <ShieldIcon size={18} />
              <span>Secure card payment</span>
            </li>
          </ul>
        </div>
        <aside className="hero__steps" aria-labelledby="hero-steps-title">
          <h2 id="hero-steps-title">Three easy steps</h2>
          <ol>
            <li>
              <span className="hero__step-number">1</span>
              <span>
                <strong>Select a product</strong> and add it to your cart.
              </span>
            </li>
            <li>
              <span className="hero__step-number">2</span>
              <span>
                <strong>Pay the invoice</strong> securely by card.
              </span>
            </li>
            <li>
              <span className="hero__step-number">3</span>
              <span>
                <strong>Receive the product</strong> from our staff in a private server.
              </span>
            </li>
          </ol>
          <Link to={paths.howItWorks.getHref()} className="hero__steps-link">
            How delivery works
          </Link>
        </aside>
      </div>
    </section>
  );
}

export function HomeRoute() {
  const { category, search, setCategory, setSearch, clear } = useCatalogFilters();
  const products = useProducts({ refetchInterval: env.PRODUCTS_POLL_MS });
  const { addToCart, confirmation } = useAddToCart();

  const visible = useMemo(
    () => filterProducts(products.data ?? [], { category, search }),
    [products.data, category, search],
  );

  const counts = useMemo(() => {
    if (!products.data) return undefined;
    const matching = products.data.filter((product) => matchesSearch(product, search));
    return Object.fromEntries(
      CATEGORIES.map((name) => [
        name,
        matching.filter((product) => matchesCategory(product, name)).length,
      ]),
    ) as Record<Category, number>;
  }, [products.data, search]);

  const filtered = category !== ALL_CATEGORIES || search.trim() !== '';

  const heading = category === ALL_CATEGORIES ? 'All products' : category;

  return (
    <>
      <title>Garden Shop · Pets, Sheckles and bundles for Grow a Garden</title>
      <HomeHero />

      {products.data ? <UpcomingDrops products={products.data} /> : null}

      <div className="container shop">
        <aside className="shop__sidebar">
          <CategoryFilter value={category} onChange={setCategory} counts={counts} />
        </aside>
        <section className="shop__main" aria-labelledby="shop-heading">
          <div className="shop__toolbar">
            <div className="shop__heading">
              <h2 id="shop-heading">{heading}</h2>
              {products.data ? (
                <p className="shop__count" aria-live="polite">
                  {visible.length} {visible.length === 1 ? 'product' : 'products'}
                </p>
              ) : null}
            </div>
            <div className="shop__search">
              <SearchBox value={search} onChange={setSearch} />
            </div>
          </div>
          <QueryBoundary
            query={products}
            loading={<ProductGridSkeleton />}
            errorTitle="We couldn't load the products"
            headingLevel={3}
            keepDataOnError
          >
            {() => (
              <Shelf
                visible={visible}
                filtered={filtered}
                emptyTitle={emptyTitle(category, search)}
                onClear={clear}
                onAddToCart={addToCart}
              />
            )}
          </QueryBoundary>
        </section>
      </div>
      {confirmation}
    </>
  );
}
