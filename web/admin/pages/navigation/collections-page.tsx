import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { fieldError, problemBeyondFields } from '../../../shared/problem';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { ConfirmButton } from '../common/confirm-button';
import { StatusMessage } from '../common/form-parts';
import { RecordTable } from '../common/record-table';
import { CollectionProducts } from './collection-products';
import { BLANK_PAGE_TEXT, type PageText, PageTextFields, pageBody, pageText } from './seo-fields';

type Collection = Answer<'/product/dashboard/api/collections/', 'get'>[number];

const FIELDS = ['name', 'handle', 'description', 'seo_title', 'seo_description', 'product_ids'];

/** A collection's form: its text and SEO fields and its products in order, sent whole on save. */
function CollectionForm(props: {
  collection?: Collection;
  names: Map<number, string>;
  onSaved: () => void;
  onClose?: () => void;
}) {
  const { api } = useDashboard();
  const { collection } = props;
  const [text, setText] = useState<PageText>(collection ? pageText(collection) : BLANK_PAGE_TEXT);
  const [ids, setIds] = useState<number[]>(collection?.product_ids ?? []);
  // Names of products added here, beside those the page read.
  const [added, setAdded] = useState(new Map<number, string>());
  const names = new Map([...props.names, ...added]);
  const write = useWrite();
  const title = collection ? `Edit ${collection.name}` : 'New collection';

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { ...pageBody(text), product_ids: ids };
    const saved = await write.run(
      () =>
        collection
          ? ok(api.PATCH('/product/dashboard/api/collections/{id}/', { params: { path: { id: collection.id } }, body }))
          : ok(api.POST('/product/dashboard/api/collections/', { body })),
      (c) => `Collection ${c.name} ${collection ? 'saved' : 'created'} with ${c.product_ids.length} products.`,
    );
    if (!saved) return;
    if (!collection) {
      setText(BLANK_PAGE_TEXT);
      setIds([]);
    }
    props.onSaved();
  };

  return (
    <form class="panel" aria-label={title} onSubmit={submit}>
      <h2>{title}</h2>
      <PageTextFields value={text} onChange={setText} problem={write.problem} />
      <CollectionProducts
        ids={ids}
        names={names}
        onChange={(next, known) => {
          setIds(next);
          if (known) setAdded(known);
        }}
        error={fieldError(write.problem, 'product_ids')}
      />
      <ErrorMessage problem={problemBeyondFields(write.problem, FIELDS)} />
      <StatusMessage text={write.done} />
      <div class="row">
        <button type="submit" disabled={write.busy}>
          {collection ? 'Save collection' : 'Create collection'}
        </button>
        {props.onClose && (
          <button type="button" class="secondary" onClick={props.onClose}>
            Close
          </button>
        )}
      </div>
    </form>
  );
}

/** /admin/collections: the store's collections (manual lists of products), created, edited and deleted here. */
export function CollectionsPage() {
  const { api } = useDashboard();
  const collections = useLoaded(() => ok(api.GET('/product/dashboard/api/collections/')), 'collections');
  // The names of the store's first products, to show the collections' members by name.
  const products = useLoaded(
    () => ok(api.GET('/product/dashboard/api/products/', { params: { query: { limit: 100, status: 'all' } } })),
    'collection-products',
  );
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();
  const names = new Map((products.data?.items ?? []).map((p) => [p.id, p.name]));

  const deleteCollection = (collection: Collection) =>
    void remove
      .run(
        () =>
          ok(api.DELETE('/product/dashboard/api/collections/{id}/', { params: { path: { id: collection.id } } })).then(
            () => collection,
          ),
        (deleted) => `Collection ${deleted.name} deleted.`,
      )
      .then((deleted) => {
        if (!deleted) return;
        if (editing === deleted.id) setEditing(undefined);
        void collections.reload();
      });

  const edited = collections.data?.find((c) => c.id === editing);
  return (
    <>
      <h1>Collections</h1>
      <p class="muted">Lists of products in an order you choose ("Gift ideas"), each with its page in the shop.</p>
      <ErrorMessage problem={collections.problem ?? remove.problem} />
      <StatusMessage text={remove.done} />
      {collections.data === undefined && collections.problem === undefined && <p>Loading…</p>}
      {collections.data?.length === 0 && <p>No collections yet.</p>}
      {collections.data && collections.data.length > 0 && (
        <RecordTable
          caption="Collections"
          columns={['Name', 'Handle', 'Products', 'Actions']}
          numeric={['Products']}
          reflow
        >
          {collections.data.map((collection) => (
            <tr key={collection.id}>
              <td data-label="Name">{collection.name}</td>
              <td data-label="Handle" class="break">
                {collection.handle}
              </td>
              <td data-label="Products" class="num">
                {collection.product_ids.length}
              </td>
              <td data-label="Actions">
                <div class="row">
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Edit ${collection.name}`}
                    onClick={() => setEditing(collection.id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label={`Delete ${collection.name}`}
                    warning={`Delete ${collection.name}? Its products stay.`}
                    disabled={remove.busy}
                    onConfirm={() => deleteCollection(collection)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      {edited && (
        <CollectionForm
          key={edited.id}
          collection={edited}
          names={names}
          onSaved={() => void collections.reload()}
          onClose={() => setEditing(undefined)}
        />
      )}
      <CollectionForm names={names} onSaved={() => void collections.reload()} />
    </>
  );
}
