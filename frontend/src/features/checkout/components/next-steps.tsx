import './next-steps.css';

/** What the buyer does after paying: delivery is by hand, through our Discord (spec §1). */
export function NextSteps() {
  return (
    <section className="next-steps" aria-labelledby="next-steps-title">
      <h2 id="next-steps-title" className="next-steps__title">
        What happens next
      </h2>
      <ol className="next-steps__list">
        <li>
          <p>
            <strong>Join our Discord server</strong> with the account you linked at checkout.
          </p>
        </li>
        <li>
          <p>
            <strong>Open a ticket</strong> in the tickets channel with your order number.
          </p>
        </li>
        <li>
          <p>
            <strong>Join our private server</strong> in Grow a Garden when staff send you the link.
          </p>
        </li>
        <li>
          <p>
            <strong>Receive your items.</strong> Delivery usually takes under 10 minutes.
          </p>
        </li>
      </ol>
    </section>
  );
}
