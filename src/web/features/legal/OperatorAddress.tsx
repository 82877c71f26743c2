import { Fragment } from 'react';
import type { Operator } from './operator.js';

/** The operator's name and address, and unless `contact` is false, e-mail, phone and representative (German, like the pages). */
export function OperatorAddress({ operator, contact = true }: { operator: Operator; contact?: boolean }) {
  return (
    <address>
      {[operator.name, ...operator.address].map((line, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {line}
        </Fragment>
      ))}
      {contact && (
        <>
          <br />
          <br />
          E-Mail: <a href={`mailto:${operator.email}`}>{operator.email}</a>
          {operator.phone && (
            <>
              <br />
              Telefon: {operator.phone}
            </>
          )}
          {operator.representative && (
            <>
              <br />
              Vertreten durch: {operator.representative}
            </>
          )}
        </>
      )}
    </address>
  );
}
