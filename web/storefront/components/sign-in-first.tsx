/** What an account page shows to someone not signed in. */
export function SignInFirst(props: { title: string; next: string }) {
  const next = encodeURIComponent(props.next);
  return (
    <>
      <h1>{props.title}</h1>
      <p>
        <a href={`/sign-in?next=${next}`}>Sign in</a> to see your orders, or{' '}
        <a href={`/sign-up?next=${next}`}>sign up</a>.
      </p>
    </>
  );
}
