import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { SproutIcon } from '@/components/ui/icons';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { useDeleteProduct } from '@/features/admin-products/api/delete-product';
import {
  PRODUCTS_POLL_MS,
  useAdminProducts,
} from '@/features/admin-products/api/get-admin-products';
import { useReorderProducts } from '@/features/admin-products/api/reorder-products';
import { ProductForm } from '@/features/admin-products/components/product-form';
import { SortableProductGrid } from '@/features/admin-products/components/sortable-product-grid';
import type { AdminProduct } from '@/features/admin-products/types';
import { PromoCodeModal } from '@/features/promo-codes/components/promo-code-modal';

import { RequireRole } from './admin-access';
import './admin-page.css';
import './admin-products.css';

/** Charts load only when the dashboard opens. */
const SalesDashboardModal = lazy(async () => ({
  default: (await import('@/features/sales/components/sales-dashboard-modal')).SalesDashboardModal,
}));

function DeleteProductModal({ product, onClose }: { product: AdminProduct; onClose: () => void }) {
  const remove = useDeleteProduct();
  const confirm = () => remove.mutate(product.id, { onSettled: () => onClose() });
  return (
    <ConfirmDialog
      open
      title={`Delete ${product.name}?`}
      confirmLabel="Delete"
      busy={remove.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    >
      A product that was ever ordered is archived instead: hidden from the shop, kept for the orders
      and the statistics.
    </ConfirmDialog>
  );
}

function ProductsSection({
  products,
  onEdit,
  onDelete,
  onDraggingChange,
}: {
  products: AdminProduct[];
  onEdit: (product: AdminProduct) => void;
  onDelete: (product: AdminProduct) => void;
  onDraggingChange: (dragging: boolean) => void;
}) {
  const reorder = useReorderProducts();
  return (
    <section className="admin-page__section" aria-labelledby="admin-products-list-title">
      <div className="admin-products__list-head">
        <h2 id="admin-products-list-title" className="admin-page__section-title">
          Products <span className="admin-products__count">({products.length})</span>
        </h2>
        <p className="admin-page__intro">
          Drag a card by its handle to change the shop&apos;s order. With the keyboard: focus the
          handle, press space, move with the arrow keys, press space to drop; or use the Move
          buttons on the card.
        </p>
      </div>
      {products.length === 0 ? (
        <StateMessage
          headingLevel={3}
          icon={<SproutIcon size={28} />}
          title="No products yet"
          description="Add the first one with the form above."
        />
      ) : (
        <SortableProductGrid
          products={products}
          onDraggingChange={onDraggingChange}
          onEdit={onEdit}
          onDelete={onDelete}
          onReorder={(next) => reorder.mutate(next)}
        />
      )}
    </section>
  );
}

/** The page's title and the admin's tools: the other admin pages, a new code, the sales. */
function AdminProductsHeader({
  onAddPromoCode,
  onOpenSales,
}: {
  onAddPromoCode: () => void;
  onOpenSales: () => void;
}) {
  return (
    <header className="admin-page__header">
      <div>
        <h1 className="admin-page__title">Products</h1>
        <p className="admin-page__intro">Add, edit and order what the shop sells.</p>
      </div>
      <nav className="admin-page__toolbar" aria-label="Admin tools">
        <Button variant="secondary" onClick={onAddPromoCode}>
          Add Promo Code
        </Button>
        <Link
          to={paths.adminPromoCodes.getHref()}
          className={buttonClassName({ variant: 'secondary' })}
        >
          Promo codes
        </Link>
        <Link
          to={paths.adminInventory.getHref()}
          className={buttonClassName({ variant: 'secondary' })}
        >
          Inventory
        </Link>
        <Link
          to={paths.adminOrders.getHref()}
          className={buttonClassName({ variant: 'secondary' })}
        >
          Orders
        </Link>
        <Link
          to={paths.adminBlocklist.getHref()}
          className={buttonClassName({ variant: 'secondary' })}
        >
          Blocklist
        </Link>
        <Link
          to={paths.adminDisputes.getHref()}
          className={buttonClassName({ variant: 'secondary' })}
        >
          Disputes
        </Link>
        <Link to={paths.adminAudit.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          Audit log
        </Link>
        <Button onClick={onOpenSales}>Sales Dashboard</Button>
      </nav>
    </header>
  );
}

function AdminProducts() {
  const [dragging, setDragging] = useState(false);
  const [editing, setEditing] = useState<AdminProduct | null>(null);
  const [deleting, setDeleting] = useState<AdminProduct | null>(null);
  const [promoOpen, setPromoOpen] = useState(false);
  const [statsOpen, setStatsOpen] = useState(false);
  // Polling pauses while a card is dragged or a product is edited, so nothing moves underneath.
  const paused = dragging || editing !== null;
  const products = useAdminProducts({ refetchInterval: paused ? false : PRODUCTS_POLL_MS });

  const list = (
    <QueryBoundary
      query={products}
      loading={
        <SkeletonList
          className="admin-page__loading"
          label="Loading products"
          height={160}
          count={2}
        />
      }
      errorTitle="We couldn't load the products"
    >
      {(data) => (
        <ProductsSection
          products={data}
          onEdit={setEditing}
          onDelete={setDeleting}
          onDraggingChange={setDragging}
        />
      )}
    </QueryBoundary>
  );

  return (
    <div className="container admin-page">
      <AdminProductsHeader
        onAddPromoCode={() => setPromoOpen(true)}
        onOpenSales={() => setStatsOpen(true)}
      />

      <section className="admin-page__section" aria-labelledby="admin-add-product-title">
        <h2 id="admin-add-product-title" className="admin-page__section-title">
          Add product
        </h2>
        <ProductForm products={products.data ?? []} />
      </section>

      {list}

      <Modal
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Edit ${editing.name}` : 'Edit product'}
      >
        {editing ? (
          <ProductForm
            key={editing.id}
            product={editing}
            products={products.data ?? []}
            onSaved={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      {deleting ? (
        <DeleteProductModal product={deleting} onClose={() => setDeleting(null)} />
      ) : null}
      <PromoCodeModal open={promoOpen} onClose={() => setPromoOpen(false)} />
      {statsOpen ? (
        <Suspense fallback={null}>
          <SalesDashboardModal open onClose={() => setStatsOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}

export function AdminProductsRoute() {
  return (
    <>
      <title>Products · Admin · Garden Shop</title>
      <RequireRole role="super_admin">
        <AdminProducts />
      </RequireRole>
    </>
  );
}
