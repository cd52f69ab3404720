import { AdminPageHeader } from '@/app/routes/admin-page-header';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { AlertIcon, SproutIcon } from '@/components/ui/icons';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import {
  PRODUCTS_POLL_MS,
  putAdminProductInCache,
  refreshStorefrontProducts,
  useAdminProducts,
} from '@/features/admin-products/api/get-admin-products';
import type { AdminProduct } from '@/features/admin-products/types';
import { useStandaloneIds } from '@/features/inventory/api/get-standalone-ids';
import { InventoryList } from '@/features/inventory/components/inventory-list';
import { errorMessage } from '@/lib/api-client';

import { RequireRole } from './admin-access';
import './admin-page.css';

export const NO_STANDALONE_PRODUCTS = 'No standalone products found...';

function Inventory() {
  const queryClient = useQueryClient();
  const products = useAdminProducts({ refetchInterval: PRODUCTS_POLL_MS });
  const bundles = useStandaloneIds();

  const onProductSaved = (product: AdminProduct) => {
    putAdminProductInCache(queryClient, product);
    void refreshStorefrontProducts(queryClient);
  };

  let content;
  if (products.isPending || bundles.isPending) {
    content = (
      <SkeletonList
        className="admin-page__loading"
        label="Loading the inventory"
        height={80}
        count={3}
      />
    );
  } else if (products.isError || bundles.isError) {
    const retry = () => {
      void products.refetch();
      void bundles.refetch();
    };
    content = (
      <StateMessage
        tone="danger"
        role="alert"
        icon={<AlertIcon size={28} />}
        title="We couldn't load the inventory"
        description={errorMessage(products.error ?? bundles.error)}
        action={<Button onClick={retry}>Retry</Button>}
      />
    );
  } else {
    const excluded = new Set(bundles.data);
    const standalone = products.data.filter((product) => !excluded.has(product.id));
    content =
      standalone.length === 0 ? (
        <StateMessage
          icon={<SproutIcon size={28} />}
          title={NO_STANDALONE_PRODUCTS}
          description="Products that are not bundles show up here once they are added."
          action={
            <Link to={paths.adminProducts.getHref()} className={buttonClassName()}>
              Add a product
            </Link>
          }
        />
      ) : (
        <InventoryList products={standalone} onProductSaved={onProductSaved} />
      );
  }

  return (
    <div className="container admin-page">
      <AdminPageHeader
        title="Inventory Management"
        intro="Type a number and press Enter (or leave the box) to save it; an empty box means 0."
      />
      {content}
    </div>
  );
}

export function AdminInventoryRoute() {
  return (
    <>
      <title>Inventory · Admin · Garden Shop</title>
      <RequireRole role="super_admin">
        <Inventory />
      </RequireRole>
    </>
  );
}
