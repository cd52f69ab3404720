import { useTranslation } from 'react-i18next';
import { categoryName } from '@/features/catalog/utils/product-labels';
import { CATEGORIES, type Category } from '@/features/catalog/utils/filter-products';

import './category-filter.css';

type CategoryFilterProps = {
  value: Category;
  onChange: (category: Category) => void;
  /** How many products each category holds, shown next to its name. */
  counts?: Partial<Record<Category, number>>;
};

/** A sidebar of category buttons; under 900 px a row of chips that scrolls sideways. */
export function CategoryFilter({ value, onChange, counts }: CategoryFilterProps) {
  const { t } = useTranslation();
  return (
    <nav className="category-filter" aria-labelledby="category-filter-title">
      <h2 id="category-filter-title" className="category-filter__title">
        {t('catalog.categories')}
      </h2>
      <ul className="category-filter__list">
        {CATEGORIES.map((category) => {
          const count = counts?.[category];
          return (
            <li key={category}>
              <button
                type="button"
                className="category-filter__button"
                aria-pressed={category === value}
                onClick={() => onChange(category)}
              >
                <span>{categoryName(category)}</span>
                {count !== undefined ? (
                  <>
                    <span className="category-filter__count" aria-hidden="true">
                      {count}
                    </span>
                    <span className="visually-hidden">
                      {` (${t('catalog.productCount', { count })})`}
                    </span>
                  </>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
