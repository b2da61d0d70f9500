import type { EndpointWithSecret } from './types';

/** The signing secret the API shows once (after a create or a rotation), with what to do with it. */
export function SecretNotice(props: { endpoint: EndpointWithSecret; rotated: boolean }) {
  const { endpoint, rotated } = props;
  return (
    <div class="panel warning">
      <p role="status">
        {rotated ? 'The signing secret was replaced' : 'The endpoint was created'}: copy its signing secret now. It is
        shown this once; the dashboard can't show it again (rotate it to get a new one).
        {rotated && ' The old secret verifies nothing from now on: give the receiver the new one.'}
      </p>
      <div class="field">
        <label for={`secret-${endpoint.id}`}>Signing secret</label>
        <input
          id={`secret-${endpoint.id}`}
          readOnly
          value={endpoint.secret}
          onFocus={(e) => e.currentTarget.select()}
          spellcheck={false}
        />
      </div>
    </div>
  );
}
