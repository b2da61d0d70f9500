export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no dashboard page here. <a href="/admin/">Back to the dashboard</a>.
      </p>
    </>
  );
}
