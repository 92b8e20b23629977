import { Box, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './billing-list.module.css';

export interface BillingColumn<T> {
  id: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Gives the cell room in the table. */
  miw?: number;
  /** On a card, takes the whole width (lists of items, inputs). */
  isWide?: boolean;
}

export interface BillingListProps<T> {
  rows: T[];
  rowKey: (row: T) => string;
  /** On a phone the `cardHead` column (the first by default) heads each card; the others become label/value pairs. */
  columns: BillingColumn<T>[];
  cardHead?: string;
  /** The row's buttons: compact in the table, full-size on a card. */
  actions?: (row: T, isCompact: boolean) => ReactNode;
  actionsLabel: string;
  label: string;
  isMobile: boolean;
  /** Below this width the table scrolls sideways inside its own box. */
  minWidth: number;
}

/** The table's buttons stack in one narrow column, so the data keeps the width. */
const ACTIONS_WIDTH = 168;

/** A billing table on wide screens and one card per row below the panel's mobile breakpoint, like the auction list. */
export function BillingList<T>({ rows, rowKey, columns, cardHead, actions, actionsLabel, label, isMobile, minWidth }: BillingListProps<T>) {
  if (isMobile) {
    const head = columns.find((column) => column.id === cardHead) ?? columns[0];
    const rest = columns.filter((column) => column !== head);
    return (
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
        {rows.map((row) => (
          <Card component="li" key={rowKey(row)} withBorder radius="md" padding="sm" data-row-id={rowKey(row)}>
            <Stack gap="sm">
              {head && <Box>{head.render(row)}</Box>}
              <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
                {rest.map((column) => (
                  <Box key={column.id} miw={0} style={column.isWide ? { gridColumn: '1 / -1' } : undefined}>
                    <Text size="xs" c="dimmed">
                      {column.label}
                    </Text>
                    {column.render(row)}
                  </Box>
                ))}
              </SimpleGrid>
              {actions && (
                <Group gap="xs" grow>
                  {actions(row, false)}
                </Group>
              )}
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table verticalSpacing="sm" horizontalSpacing={8} highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.id}>{column.label}</Table.Th>
            ))}
            {actions && <Table.Th>{actionsLabel}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-row-id={rowKey(row)} style={{ verticalAlign: 'top' }}>
              {columns.map((column) => (
                <Table.Td key={column.id} miw={column.miw}>
                  {column.render(row)}
                </Table.Td>
              ))}
              {actions && (
                <Table.Td w={ACTIONS_WIDTH}>
                  <Stack gap={6} w={ACTIONS_WIDTH} className={classes.actions}>
                    {actions(row, true)}
                  </Stack>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** First load: the shape of the rows, so nothing jumps when they arrive. */
export function BillingListSkeleton({ columns, isMobile, rows = 3 }: { columns: number; isMobile: boolean; rows?: number }) {
  if (isMobile) {
    return (
      <Stack gap="sm" aria-hidden="true">
        {Array.from({ length: rows }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cards have no identity
          <Card key={index} withBorder radius="md" padding="sm">
            <Stack gap={6}>
              <Skeleton h={14} w="60%" radius="xl" />
              <Skeleton h={12} w="90%" radius="xl" />
              <Skeleton h={12} w="40%" radius="xl" />
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="sm" aria-hidden="true">
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <Group key={row} gap="md" wrap="nowrap">
          {Array.from({ length: columns }, (_, column) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
            <Skeleton key={column} h={12} radius="xl" style={{ flex: column === 0 ? 2 : 1 }} />
          ))}
        </Group>
      ))}
    </Stack>
  );
}
