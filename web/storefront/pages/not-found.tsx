export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no page here. <a href="/">See the products</a>.
      </p>
    </>
  );
}
