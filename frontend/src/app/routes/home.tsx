import i18next from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
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
import { categoryName } from '@/features/catalog/utils/product-labels';
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
  const name = categoryName(category);
  if (query && category !== ALL_CATEGORIES) {
    return i18next.t('home.noMatchIn', { query, category: name });
  }
  if (query) return i18next.t('home.noMatch', { query });
  return i18next.t('home.noneInCategory', { category: name });
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
  const { t } = useTranslation();
  if (visible.length > 0) {
    return (
      <ProductGrid label={t('home.products')}>
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
      description={t('home.noMatchHint')}
      action={
        <Button variant="secondary" onClick={onClear}>
          {t('home.clearFilters')}
        </Button>
      }
    />
  ) : (
    <StateMessage
      headingLevel={3}
      role="status"
      icon={<SproutIcon size={28} />}
      title={t('home.restocking')}
      description={t('home.restockingHint')}
    />
  );
}

/** The hero: what the shop sells and its three steps. */
function HomeHero() {
  const { t } = useTranslation();
  return (
    <section className="hero">
      <div className="container hero__inner">
        <div className="hero__text">
          <p className="hero__eyebrow">
            <SproutIcon size={18} /> {t('home.eyebrow')}
          </p>
          <h1 className="hero__title">{t('home.title')}</h1>
          <p className="hero__lead">{t('home.lead')}</p>
          <ul className="hero__perks">
            {/* each perk's words in one span: the flex gap falls between icon and words only */}
            <li>
              <ClockIcon size={18} />
              <span>
                <Trans i18nKey="home.usuallyDelivered" components={{ time: <DeliveryTime /> }} />
              </span>
            </li>
            <li>
              <ShieldIcon size={18} />
              <span>{t('home.secureCard')}</span>
            </li>
          </ul>
        </div>
        <aside className="hero__steps" aria-labelledby="hero-steps-title">
          <h2 id="hero-steps-title">{t('home.stepsTitle')}</h2>
          <ol>
            <li>
              <span className="hero__step-number">1</span>
              <span>
                <Trans i18nKey="home.step1" components={{ strong: <strong /> }} />
              </span>
            </li>
            <li>
              <span className="hero__step-number">2</span>
              <span>
                <Trans i18nKey="home.step2" components={{ strong: <strong /> }} />
              </span>
            </li>
            <li>
              <span className="hero__step-number">3</span>
              <span>
                <Trans i18nKey="home.step3" components={{ strong: <strong /> }} />
              </span>
            </li>
          </ol>
          <Link to={paths.howItWorks.getHref()} className="hero__steps-link">
            {t('home.howDeliveryWorks')}
          </Link>
        </aside>
      </div>
    </section>
  );
}

export function HomeRoute() {
  const { t } = useTranslation();
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

  const heading = category === ALL_CATEGORIES ? t('home.allProducts') : categoryName(category);

  return (
    <>
      <title>{t('home.pageTitle')}</title>
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
                  {t('catalog.productCount', { count: visible.length })}
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
            errorTitle={t('home.loadError')}
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
