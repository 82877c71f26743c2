import { OPERATOR } from './operator.js';

export function OperatorAddress({ contact = true }: { contact?: boolean }) {
  return (
    <address>
      {OPERATOR.name}
      <br />
      {OPERATOR.business}
      <br />
      {OPERATOR.street}
      <br />
      {OPERATOR.city}
      <br />
      {OPERATOR.country}
      {contact && (
        <>
          <br />
          <br />
          E-Mail: <a href={`mailto:${OPERATOR.email}`}>{OPERATOR.email}</a>
          <br />
          Telefon: {OPERATOR.phone}
        </>
      )}
    </address>
  );
}
