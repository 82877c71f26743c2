import { Link } from 'react-router';
import { LegalLayout } from './LegalLayout.js';
import { OperatorAddress } from './OperatorAddress.js';
import { AUTHORITY } from './operator.js';

/**
 * /privacy: Datenschutzerklärung (Art. 13 DSGVO). Carries the statements of public-area-and-api.md §1
 * (stored data: e-mail and name, IP address, payment data via the payment provider) and lists every key the
 * app keeps in the browser (§3; the cookie banner lists the same).
 */
export default function PrivacyPage() {
  return (
    <LegalLayout title="Datenschutzerklärung">
      {(operator) => (
        <>
          <p>
            Datenschutz ist bei Feeder kein Zusatz, sondern Grundsatz: Wir verarbeiten nur die Daten, die für den Betrieb deines Kontos nötig sind. Es gibt kein Tracking,
            keine Werbung und keine Analyse-Tools. Hier erfährst du, welche Daten das sind, wofür wir sie brauchen und welche Rechte du hast.
          </p>

          <h2>1. Verantwortlicher</h2>
          <p>Verantwortlich für die Datenverarbeitung im Sinne der Datenschutz-Grundverordnung (DSGVO) ist:</p>
          <OperatorAddress operator={operator} />

          <h2>2. Welche Daten wir speichern</h2>
          <p>Wir speichern die folgenden Daten:</p>
          <ul>
            <li>
              <strong>E-Mail-Adresse und Name</strong> – für dein Konto, die Anmeldung und für Nachrichten, die zum Dienst gehören (Bestätigung deiner E-Mail-Adresse,
              Zurücksetzen des Passworts).
            </li>
            <li>
              <strong>IP-Adresse</strong> – bei jedem Aufruf, um den Dienst sicher zu betreiben, Missbrauch wie massenhafte Anmeldeversuche abzuwehren und Fehler zu
              finden.
            </li>
            <li>
              <strong>Zahlungsdaten über den Zahlungsdienstleister</strong> – für kostenpflichtige Abonnements (siehe Abschnitt 5).
            </li>
          </ul>
          <p>Außerdem speichern wir, was du in Feeder selbst anlegst:</p>
          <ul>
            <li>dein Passwort, ausschließlich als kryptografischer Hash (Argon2id) – wir kennen es nicht im Klartext;</li>
            <li>deine Spracheinstellung (Deutsch oder Englisch);</li>
            <li>deine abonnierten Feeds, Ordner, Leselisten, Filter und Stummschaltungen sowie welche Artikel du gelesen oder als Favorit markiert hast;</li>
            <li>wenn du Reader-Apps anbindest: das Passwort für die Fever- und Google-Reader-Schnittstelle (verschlüsselt) und persönliche API-Token (nur als Hash).</li>
          </ul>

          <h2>3. Zwecke und Rechtsgrundlagen</h2>
          <ul>
            <li>Bereitstellung deines Kontos und der Funktionen von Feeder: Art. 6 Abs. 1 lit. b DSGVO (Vertrag bzw. vorvertragliche Maßnahmen).</li>
            <li>
              Sicherheit, Missbrauchsabwehr und Fehleranalyse anhand von IP-Adressen und Server-Protokollen: Art. 6 Abs. 1 lit. f DSGVO. Unser berechtigtes Interesse ist
              ein sicherer und stabiler Dienst.
            </li>
            <li>Abrechnung und Aufbewahrung von Buchungsbelegen: Art. 6 Abs. 1 lit. b und lit. c DSGVO in Verbindung mit § 147 AO und § 257 HGB.</li>
          </ul>

          <h2>4. Speicherung in deinem Browser</h2>
          <p>
            Feeder setzt keine Tracking-Cookies. Damit die Web-App funktioniert, legt sie wenige Einträge im lokalen Speicher (Local Storage) deines Browsers ab. Sie sind
            technisch erforderlich (§ 25 Abs. 2 Nr. 2 TDDDG) und verlassen deinen Browser nur, soweit sie für die Anmeldung an unseren Server geschickt werden:
          </p>
          <ul>
            <li>
              <code>cookiesAccepted</code> – merkt sich, dass du den Hinweis zur Speicherung gelesen und bestätigt hast.
            </li>
            <li>
              <code>token</code> und <code>refresh_token</code> – halten dich angemeldet. Das Zugangs-Token ist 15 Minuten gültig und wird mit dem Refresh-Token erneuert;
              beim Abmelden werden beide gelöscht.
            </li>
            <li>
              <code>user</code> – dein Name, deine E-Mail-Adresse und deine Spracheinstellung, damit die Oberfläche sofort bereitsteht.
            </li>
            <li>
              <code>theme</code> – helles oder dunkles Design.
            </li>
            <li>
              <code>language</code> – die gewählte Sprache der Oberfläche.
            </li>
          </ul>
          <p>
            Im Sitzungsspeicher (Session Storage), der beim Schließen des Tabs gelöscht wird, liegen höchstens eine Fehlermeldung der Anmeldung <code>loginError</code>{' '}
            und die E-Mail-Adresse eines noch nicht bestätigten Kontos <code>pendingVerificationEmail</code>, damit das Formular zum erneuten Senden der Bestätigungsmail
            bereits ausgefüllt ist.
          </p>
          <p>Du kannst alle Einträge jederzeit in den Einstellungen deines Browsers löschen; danach bist du abgemeldet.</p>

          <h2>5. Zahlungen</h2>
          <p>
            Abonnements werden monatlich im Voraus über einen externen Kartenzahlungsdienstleister bezahlt. Deine Kartendaten gibst du direkt beim Zahlungsdienstleister
            ein; sie werden dort verarbeitet und erreichen unseren Server nicht. Wir erhalten vom Zahlungsdienstleister nur die Angaben, die wir für die Abrechnung
            brauchen (zum Beispiel Betrag, Zeitpunkt und Status der Zahlung). Für die Verarbeitung beim Zahlungsdienstleister gilt zusätzlich dessen Datenschutzerklärung.
            Derzeit kosten beide Tarife 0 €, es fallen also keine Zahlungen an.
          </p>

          <h2>6. Feeds, Bilder und eingebettete Inhalte</h2>
          <p>
            Die Feeds, die du abonnierst, ruft unser Server ab – die Anbieter der Feeds sehen dabei die Adresse unseres Servers, nicht deine. Bilder in Artikeln lädt dein
            Browser jedoch direkt von den Servern der jeweiligen Anbieter; dabei erhalten diese deine IP-Adresse und die üblichen technischen Angaben deines Browsers.
            Eingebettete Videos (YouTube im erweiterten Datenschutzmodus, Vimeo) werden ebenfalls direkt von diesen Anbietern geladen, wenn du einen Artikel mit einem
            solchen Video öffnest.
          </p>

          <h2>7. Empfänger</h2>
          <p>
            Wir verkaufen keine Daten und geben sie nicht zu Werbezwecken weiter. Empfänger sind nur Dienstleister, die wir für den Betrieb brauchen und die in unserem
            Auftrag nach Art. 28 DSGVO handeln (Hosting, E-Mail-Versand), sowie der Zahlungsdienstleister für Zahlungen. Eine Übermittlung in Länder außerhalb der EU bzw.
            des EWR findet nur statt, wenn dafür die Voraussetzungen der Art. 44 ff. DSGVO erfüllt sind.
          </p>

          <h2>8. Speicherdauer</h2>
          <ul>
            <li>Kontodaten und deine Inhalte in Feeder speichern wir, bis du dein Konto löschst.</li>
            <li>Server-Protokolle mit IP-Adressen löschen wir nach spätestens 14 Tagen, sofern sie nicht zur Aufklärung eines Angriffs benötigt werden.</li>
            <li>Links zum Bestätigen der E-Mail-Adresse sind 24 Stunden gültig, Links zum Zurücksetzen des Passworts eine Stunde; danach sind sie wertlos.</li>
            <li>Buchungsbelege bewahren wir so lange auf, wie es das Handels- und Steuerrecht vorschreibt.</li>
          </ul>

          <h2>9. Deine Rechte</h2>
          <p>Du hast jederzeit das Recht auf</p>
          <ul>
            <li>Auskunft über deine bei uns gespeicherten Daten (Art. 15 DSGVO),</li>
            <li>Berichtigung unrichtiger Daten (Art. 16 DSGVO),</li>
            <li>Löschung (Art. 17 DSGVO) und Einschränkung der Verarbeitung (Art. 18 DSGVO),</li>
            <li>Datenübertragbarkeit (Art. 20 DSGVO) – deine Feeds kannst du zum Beispiel jederzeit als OPML-Datei exportieren,</li>
            <li>Widerspruch gegen Verarbeitungen, die auf unserem berechtigten Interesse beruhen (Art. 21 DSGVO),</li>
            <li>Widerruf einer erteilten Einwilligung mit Wirkung für die Zukunft (Art. 7 Abs. 3 DSGVO).</li>
          </ul>
          <p>
            Schreib uns dafür einfach an <a href={`mailto:${operator.email}`}>{operator.email}</a>. Außerdem kannst du dich bei einer Datenschutz-Aufsichtsbehörde
            beschweren (Art. 77 DSGVO), zum Beispiel bei {AUTHORITY}.
          </p>

          <h2>10. Pflicht zur Bereitstellung, keine automatisierten Entscheidungen</h2>
          <p>
            Ohne E-Mail-Adresse, Name und Passwort können wir kein Konto für dich anlegen. Automatisierte Entscheidungen im Einzelfall einschließlich Profiling (Art. 22
            DSGVO) finden nicht statt.
          </p>

          <h2>11. Sicherheit</h2>
          <p>
            Die Verbindung zu Feeder ist verschlüsselt. Passwörter und Token speichern wir nur als Hash, Zugangsdaten für Reader-Apps verschlüsselt. Nach einer
            Passwortänderung werden alle bestehenden Anmeldungen beendet.
          </p>

          <h2>12. Änderungen</h2>
          <p>
            Wenn sich der Dienst ändert, passen wir diese Datenschutzerklärung an. Es gilt die jeweils hier veröffentlichte Fassung. Siehe auch{' '}
            <Link to="/imprint">Impressum</Link> und <Link to="/terms">Nutzungsbedingungen</Link>.
          </p>
        </>
      )}
    </LegalLayout>
  );
}
