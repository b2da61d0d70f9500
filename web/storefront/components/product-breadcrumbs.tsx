import { categoryAncestry } from '../../shared/category-tree';
import { useNavigation } from '../catalog/use-categories';
import { Breadcrumbs } from './breadcrumbs';

/**
 * A product's breadcrumbs: down its first category (the answer lists them in id order) from the top of the tree, then
 * the product. A product in no category shows "Products › <name>".
 */
export function ProductBreadcrumbs(props: { name: string; categories: { id: number }[] }) {
  const navigation = useNavigation();
  const first = props.categories[0];
  const trail = first && navigation ? categoryAncestry(navigation.categories, first.id) : [];
  return <Breadcrumbs trail={trail} current={props.name} />;
}
