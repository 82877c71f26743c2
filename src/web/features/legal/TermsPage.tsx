import { Link } from 'react-router';
import { LegalLayout } from './LegalLayout.js';

/**
 * /terms: Nutzungsbedingungen. Carries the statements of public-area-and-api.md §1: monthly payment in advance
 * through an external card payment provider, the small-business VAT exemption (§ 19 UStG), cancellation at any
 * time to the end of the billing period, automatic renewal by one month, no refunds, liability capped at what was
 * paid in the last six months. The cap can only apply to slight negligence (§ 309 Nr. 7 BGB), hence its wording.
 */
export default function TermsPage() {
  return (
    <LegalLayout title="Nutzungsbedingungen">
      {(operator) => (
        <>
          <h2>§ 1 Geltungsbereich</h2>
          <p>
            Diese Bedingungen gelten für die Nutzung von Feeder, einem Feedreader im Web, angeboten von {operator.name}, {operator.address.join(', ')} (im Folgenden
            „wir“). Mit der Registrierung erklärst du dich mit ihnen einverstanden. Abweichende Bedingungen gelten nur, wenn wir ihnen ausdrücklich zustimmen.
          </p>

          <h2>§ 2 Leistungen</h2>
          <p>
            Mit Feeder kannst du Feeds abonnieren, Artikel lesen, als gelesen oder als Favorit markieren, in Leselisten sammeln, filtern und Feeds stummschalten. Über die
            Fever- und die Google-Reader-Schnittstelle sowie eine öffentliche API kannst du andere Apps anbinden. Wir bieten die Tarife „Kostenlos“ und „Premium“ an;
            deren Umfang ergibt sich aus der Beschreibung auf der Startseite zum Zeitpunkt der Buchung.
          </p>

          <h2>§ 3 Konto</h2>
          <ul>
            <li>
              Für die Nutzung brauchst du ein Konto. Deine Angaben bei der Registrierung müssen zutreffen; deine E-Mail-Adresse bestätigst du über einen Link, den wir dir
              schicken.
            </li>
            <li>Halte dein Passwort geheim. Wenn du vermutest, dass jemand anderes es kennt, ändere es sofort.</li>
            <li>Die Registrierung kann auf bestimmte E-Mail-Domains beschränkt sein. Ein Anspruch auf ein Konto besteht nicht.</li>
          </ul>

          <h2>§ 4 Preise und Zahlung</h2>
          <ul>
            <li>Abonnements werden monatlich im Voraus über einen externen Kartenzahlungsdienstleister bezahlt.</li>
            <li>Wir nutzen die Kleinunternehmerregelung nach § 19 UStG. Deshalb wird keine Umsatzsteuer berechnet; die angegebenen Preise sind Endpreise.</li>
            <li>Derzeit kosten beide Tarife 0 €. Über Preisänderungen informieren wir dich rechtzeitig vorher per E-Mail.</li>
          </ul>

          <h2>§ 5 Laufzeit, Verlängerung und Kündigung</h2>
          <ul>
            <li>Ein Abonnement läuft jeweils einen Monat.</li>
            <li>Es verlängert sich automatisch um einen weiteren Monat, wenn du es nicht vorher kündigst.</li>
            <li>
              Du kannst jederzeit zum Ende des laufenden Abrechnungszeitraums kündigen, formlos per E-Mail an <a href={`mailto:${operator.email}`}>{operator.email}</a>.
              Bis dahin kannst du den Tarif weiter nutzen.
            </li>
            <li>Das Recht beider Seiten zur Kündigung aus wichtigem Grund bleibt unberührt.</li>
          </ul>

          <h2>§ 6 Keine Erstattung</h2>
          <p>
            Bereits gezahlte Beträge werden nicht erstattet, auch nicht anteilig, wenn du während eines Abrechnungszeitraums kündigst oder den Dienst nicht nutzt.
            Gesetzliche Rechte, insbesondere ein dir als Verbraucher zustehendes Widerrufsrecht, bleiben davon unberührt.
          </p>

          <h2>§ 7 Deine Pflichten</h2>
          <ul>
            <li>Nutze Feeder nur im Rahmen der geltenden Gesetze und respektiere die Rechte der Anbieter der Feeds, die du abonnierst.</li>
            <li>
              Belaste den Dienst nicht übermäßig. Die öffentliche API erlaubt 100 Anfragen pro Minute und 5.000 Anfragen pro Tag je Nutzer; darüber hinausgehende Anfragen
              werden abgewiesen.
            </li>
            <li>Versuche nicht, Sicherheitsmechanismen zu umgehen oder auf Daten anderer Nutzer zuzugreifen.</li>
          </ul>

          <h2>§ 8 Inhalte Dritter und Verfügbarkeit</h2>
          <p>
            Die Artikel in deinen Feeds stammen von deren Anbietern; für sie sind diese verantwortlich. Wir bemühen uns um einen unterbrechungsfreien Betrieb, können aber
            keine ständige Verfügbarkeit zusagen – etwa bei Wartungsarbeiten oder wenn eine Feed-Quelle nicht erreichbar ist.
          </p>

          <h2>§ 9 Haftung</h2>
          <ul>
            <li>Wir haften unbeschränkt bei Vorsatz und grober Fahrlässigkeit, bei Verletzung von Leben, Körper oder Gesundheit sowie nach dem Produkthaftungsgesetz.</li>
            <li>
              Bei leichter Fahrlässigkeit haften wir nur für die Verletzung wesentlicher Vertragspflichten, also solcher, deren Erfüllung die ordnungsgemäße Durchführung
              des Vertrags erst ermöglicht, und nur für den vorhersehbaren, vertragstypischen Schaden.
            </li>
            <li>
              In den Fällen leichter Fahrlässigkeit ist unsere Haftung zudem der Höhe nach auf den Betrag begrenzt, den du in den letzten 6 Monaten vor dem schädigenden
              Ereignis an uns gezahlt hast.
            </li>
          </ul>

          <h2>§ 10 Datenschutz</h2>
          <p>
            Wie wir mit deinen Daten umgehen, beschreibt unsere <Link to="/privacy">Datenschutzerklärung</Link>.
          </p>

          <h2>§ 11 Änderungen dieser Bedingungen</h2>
          <p>
            Wir können diese Bedingungen ändern, wenn sich der Dienst oder die Rechtslage ändert. Über Änderungen informieren wir dich mindestens vier Wochen vorher per
            E-Mail. Widersprichst du nicht bis zum Inkrafttreten, gelten die neuen Bedingungen; auf diese Folge weisen wir dich in der E-Mail ausdrücklich hin.
            Widersprichst du, können beide Seiten den Vertrag zum Inkrafttreten der Änderung kündigen.
          </p>

          <h2>§ 12 Schlussbestimmungen</h2>
          <p>
            Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des UN-Kaufrechts. Bist du Verbraucher, bleiben zwingende Verbraucherschutzvorschriften des
            Staates, in dem du deinen gewöhnlichen Aufenthalt hast, unberührt. Sollte eine Bestimmung unwirksam sein, bleibt der Vertrag im Übrigen wirksam.
            Anbieterangaben findest du im <Link to="/imprint">Impressum</Link>.
          </p>
        </>
      )}
    </LegalLayout>
  );
}
