import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { type CategoryNode, nestCategories } from '../../shared/category-tree';
import { categoryPath, collectionPath } from '../catalog/paths';
import { useNavigation } from '../catalog/use-categories';

function Branch(props: { nodes: CategoryNode[]; current: string }) {
  return (
    <ul>
      {props.nodes.map((node) => {
        const href = categoryPath(node.handle);
        return (
          <li key={node.id}>
            <a href={href} aria-current={props.current === href ? 'page' : undefined}>
              {node.name}
            </a>
            {node.children.length > 0 && <Branch nodes={node.children} current={props.current} />}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The category bar under the header: the category tree (subcategories nested under their parent) and the
 * collections. On a wide screen it is always shown; on a phone a "Categories" button opens and closes it, and it
 * closes again when a page is opened.
 */
export function CategoryNav() {
  const navigation = useNavigation();
  const { path } = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [path]);
  if (navigation === undefined) return null;
  const { categories, collections } = navigation;
  if (categories.length === 0 && collections.length === 0) return null;
  return (
    <nav aria-label="Categories" class="category-nav">
      <button
        type="button"
        class="secondary nav-toggle"
        aria-expanded={open}
        aria-controls="category-tree"
        onClick={() => setOpen(!open)}
      >
        Categories
      </button>
      <div id="category-tree" class={open ? 'nav-tree open' : 'nav-tree'}>
        {categories.length > 0 && <Branch nodes={nestCategories(categories)} current={path} />}
        {collections.length > 0 && (
          <ul class="collections">
            {collections.map((c) => {
              const href = collectionPath(c.handle);
              return (
                <li key={c.id}>
                  <a href={href} aria-current={path === href ? 'page' : undefined}>
                    {c.name}
                  </a>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </nav>
  );
}
