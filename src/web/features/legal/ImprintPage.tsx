import { Link } from 'react-router';
import { LegalLayout } from './LegalLayout.js';
import { OperatorAddress } from './OperatorAddress.js';

/** /imprint: Impressum nach § 5 DDG und § 18 Abs. 2 MStV (German by design, public-area-and-api.md §2). */
export default function ImprintPage() {
  return (
    <LegalLayout title="Impressum">
      {(operator) => (
        <>
          <h2>Angaben gemäß § 5 DDG</h2>
          <OperatorAddress operator={operator} />

          <h2>Umsatzsteuer</h2>
          <p>Der Anbieter ist Kleinunternehmer im Sinne von § 19 UStG (Kleinunternehmerregelung). Es wird daher keine Umsatzsteuer berechnet und ausgewiesen.</p>

          <h2>Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV</h2>
          {/* § 18 Abs. 2 MStV names a natural person: the representative when the operator is a company. */}
          <OperatorAddress operator={operator.representative ? { ...operator, name: operator.representative } : operator} contact={false} />

          <h2>Verbraucherstreitbeilegung</h2>
          <p>
            Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen (§ 36 VSBG). Bei Fragen oder
            Beschwerden schreib uns einfach an <a href={`mailto:${operator.email}`}>{operator.email}</a> – wir kümmern uns darum.
          </p>

          <h2>Inhalte Dritter</h2>
          <p>
            Feeder zeigt Artikel, Bilder und Links aus Feeds an, die du selbst abonnierst. Diese Inhalte stammen von den jeweiligen Anbietern der Feeds, die für sie
            verantwortlich sind. Wir machen uns diese Inhalte nicht zu eigen und prüfen sie nicht vorab. Sobald wir von einer Rechtsverletzung erfahren, entfernen wir den
            betreffenden Inhalt bzw. sperren den Zugang dazu unverzüglich.
          </p>

          <h2>Weitere Informationen</h2>
          <p>
            Wie wir mit deinen Daten umgehen, steht in der <Link to="/privacy">Datenschutzerklärung</Link>; die Regeln für die Nutzung von Feeder in den{' '}
            <Link to="/terms">Nutzungsbedingungen</Link>.
          </p>
        </>
      )}
    </LegalLayout>
  );
}
