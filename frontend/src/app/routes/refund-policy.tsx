import { AskUs } from '@/app/ask-us';
import { Skeleton } from '@/components/ui/skeleton';
import { ContentLayout } from '@/components/layouts/content-layout';
import { useRefundPolicy } from '@/features/site/api/get-refund-policy';
import { errorMessage } from '@/lib/api-client';

const effective = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** Where to ask for a refund: the Discord server when the shop has one, else the help chat. */
function Contact() {
  return (
    <>
      <h2>Contact us</h2>
      <p>
        <AskUs />.
      </p>
    </>
  );
}

/**
 * The refund policy as the server keeps it (GET /api/refund-policy): the checkout links this
 * page beside Complete Payment and every order records the version it was placed under.
 */
export function RefundPolicyRoute() {
  const policy = useRefundPolicy();
  return (
    <ContentLayout
      title="Refund Policy"
      intro={policy.data?.intro ?? 'Our items are digital and delivered by hand.'}
    >
      {policy.data ? (
        <>
          <p className="content-meta" data-testid="refund-policy-version">
            In effect since{' '}
            <time dateTime={policy.data.version}>
              {effective.format(new Date(`${policy.data.version}T00:00:00Z`))}
            </time>{' '}
            (version {policy.data.version}).
          </p>
          {policy.data.sections.map((section) => (
            <section key={section.heading} aria-label={section.heading}>
              <h2>{section.heading}</h2>
              <p>{section.text}</p>
            </section>
          ))}
        </>
      ) : policy.error ? (
        <p role="alert">
          The policy could not be loaded: {errorMessage(policy.error)} Reload the page to try again.
        </p>
      ) : (
        <Skeleton height="12rem" />
      )}
      <Contact />
    </ContentLayout>
  );
}
