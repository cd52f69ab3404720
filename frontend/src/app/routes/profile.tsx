import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { SproutIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { Skeleton, SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { setSession } from '@/features/auth/api/get-session';
import { useLogout } from '@/features/auth/api/logout';
import { AccountTypeBadge } from '@/features/auth/components/account-type-badge';
import { RequireLogin } from '@/features/auth/components/route-guards';
import { useUser } from '@/features/auth/hooks/use-user';
import type { User } from '@/features/auth/types';
import { useProfile } from '@/features/profile/api/get-profile';
import { OrderList } from '@/features/profile/components/order-list';
import { YourData } from '@/features/profile/components/your-data';

import './profile.css';

function OrdersSection({ userId }: { userId: number }) {
  const { t } = useTranslation('pages');
  const profile = useProfile(userId);

  const content = (
    <QueryBoundary
      query={profile}
      loading={
        <SkeletonList
          className="profile-orders__loading"
          label={t('profile.loadingOrders')}
          height={72}
          count={2}
        />
      }
      errorTitle={t('profile.ordersFailed')}
      headingLevel={3}
    >
      {({ orders }) =>
        orders.length === 0 ? (
          <StateMessage
            headingLevel={3}
            icon={<SproutIcon size={28} />}
            title={t('profile.noOrders')}
            description={t('profile.noOrdersDetail')}
            action={
              <Link to={paths.home.getHref()} className={buttonClassName()}>
                {t('profile.browse')}
              </Link>
            }
          />
        ) : (
          <OrderList orders={orders} />
        )
      }
    </QueryBoundary>
  );

  return (
    <section className="profile-orders" aria-labelledby="my-orders-title">
      <h2 id="my-orders-title" className="profile-orders__title">
        {t('profile.myOrders')}
      </h2>
      {content}
    </section>
  );
}

function ProfileCard({ user }: { user: User }) {
  const { t } = useTranslation('pages');
  const logout = useLogout();
  return (
    <section className="profile-card" aria-labelledby="profile-name">
      <div className="profile-card__avatar" aria-hidden="true">
        {user.name.trim().charAt(0).toUpperCase() || '?'}
      </div>
      <div className="profile-card__who">
        <h1 id="profile-name" className="profile-card__name">
          {user.name}
        </h1>
        <p className="profile-card__email">{user.email}</p>
        <AccountTypeBadge accountType={user.account_type} />
      </div>
      <Button
        variant="secondary"
        className="profile-card__logout"
        loading={logout.isPending}
        onClick={() => logout.mutate()}
      >
        {t('profile.logout')}
      </Button>
    </section>
  );
}

function ProfileSkeleton() {
  const { t } = useTranslation('pages');
  return (
    <div className="profile-card" aria-busy="true" aria-label={t('profile.loading')}>
      <Skeleton width={64} height={64} radius="var(--radius-full)" />
      <div className="profile-card__who">
        <Skeleton width="12ch" height="1.5em" />
        <Skeleton width="20ch" />
      </div>
    </div>
  );
}

function Profile() {
  const { user } = useUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const deleted = useRef(false);
  // After a deletion the session is dropped once this page has gone: dropped while /profile is
  // still shown, its login guard would send the former shopper to /login, not the storefront.
  useEffect(
    () => () => {
      if (deleted.current) setSession(queryClient, null);
    },
    [queryClient],
  );
  if (!user) return null;

  function onAccountDeleted() {
    deleted.current = true;
    void navigate(paths.home.getHref(), { replace: true });
  }

  return (
    <>
      <ProfileCard user={user} />
      <OrdersSection userId={user.id} />
      {user.account_type === 'customer' ? <YourData onAccountDeleted={onAccountDeleted} /> : null}
    </>
  );
}

export function ProfileRoute() {
  const { t } = useTranslation('pages');
  return (
    <div className="container profile-page">
      <title>{t('common.pageTitle', { ns: 'translation', title: t('profile.title') })}</title>
      <RequireLogin fallback={<ProfileSkeleton />}>
        <Profile />
      </RequireLogin>
    </div>
  );
}
