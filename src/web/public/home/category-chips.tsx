import { Box, Button, Group, Text } from '@mantine/core';
import type { HomeCategory } from '../../api/home';

/**
 * *Categorías*: one row of chips that scrolls sideways on a phone; the chosen one is pressed (the
 * page keeps it in its address). The home filters its shows with it, the search its results.
 */
export function CategoryChips({
  categories,
  chosen,
  onChoose,
  heading,
  allLabel,
  headingId,
}: {
  categories: HomeCategory[];
  chosen: string | null;
  onChoose: (id: string | null) => void;
  heading: string;
  allLabel: string;
  headingId: string;
}) {
  const chip = (id: string | null, name: string) => (
    <Button
      key={id ?? 'all'}
      size="compact-md"
      radius="xl"
      variant={chosen === id ? 'filled' : 'default'}
      aria-pressed={chosen === id}
      onClick={() => onChoose(id)}
      style={{ flex: 'none' }}
      data-testid="category-chip"
    >
      {name}
    </Button>
  );
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Text id={headingId} component="h2" size="sm" fw={700} c="dimmed" mb={6}>
        {heading}
      </Text>
      <Group gap="xs" wrap="nowrap" pb={4} style={{ overflowX: 'auto', scrollbarWidth: 'none' }}>
        {chip(null, allLabel)}
        {categories.map((category) => chip(category.id, category.name))}
      </Group>
    </Box>
  );
}
