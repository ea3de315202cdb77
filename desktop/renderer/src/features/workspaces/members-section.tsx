import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { assignableRoles, can, roleLabels, type AssignableRole } from '../../../../../shared/permissions';
import type { PlanName } from '../../../../../shared/plans';
import { type MemberDto, type WorkspaceDto } from '../../../../../shared/workspaces';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { ModalDialog } from '../../components/modal-dialog';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { formatDate } from '../../lib/format';
import { meQueries } from '../account/index';
import { inviteBlockedReason } from './limits';
import { useChangeMemberRole, useRemoveMember, workspaceQueries } from './queries';
import { failed, succeeded } from '../../components/feedback';
import { InviteForm } from './invitations-section';

export function Members({ workspace }: { workspace: WorkspaceDto }) {
  const role = workspace.role_name;
  const members = useInfiniteQuery(workspaceQueries.memberPages(workspace.id));
  const invitations = useInfiniteQuery(workspaceQueries.invitations(workspace.id));
  const memberList = pagedItems(members.data);
  const quota = useQuery(workspaceQueries.quota(workspace.id));
  const { data: me } = useQuery(meQueries.me());
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<MemberDto | null>(null);
  const changeRole = useChangeMemberRole(workspace.id);
  const remove = useRemoveMember(workspace.id);

  const plan: PlanName | undefined = quota.data?.subscription.currentPlan.name;
  const reason = inviteBlockedReason(role, members.data ? plan : undefined, memberList.length, pagedItems(invitations.data).length);

  return (
    <Stack gap="sm">
      <SectionHeading title="Members" create={{ label: 'Invite Member', onClick: () => setInviting(true), disabledReason: reason }} />
      <DataList<MemberDto>
        records={members.data ? memberList : undefined}
        error={members.error}
        label="Members"
        loadingLabel="Loading members…"
        loaderMinHeight={80}
        idAccessor="user_id"
        cardGap={0}
        empty={null}
        card={(m) => {
          const self = me?.id === m.user_id;
          const editable = !m.is_creator && can(role, 'members.update');
          const removable = !m.is_creator && !self && can(role, 'members.delete');
          return (
            <Paper withBorder p="sm" radius={0} style={{ marginTop: -1 }} data-member={m.email}>
              <Group justify="space-between" gap="sm">
                <Stack gap={2} miw={0} style={{ flex: '1 1 200px' }}>
                  <Group gap="xs">
                    <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {m.email}
                    </Text>
                    {self && (
                      <Text size="sm" c="dimmed">
                        (you)
                      </Text>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    Joined {formatDate(m.joined_at)}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  {editable ? (
                    <NativeSelect
                      aria-label={`Role of ${m.email}`}
                      value={m.role_name}
                      disabled={changeRole.isPending}
                      data={assignableRoles.map((r) => ({ value: r, label: roleLabels[r] }))}
                      onChange={(e) => {
                        const next = e.currentTarget.value as AssignableRole;
                        changeRole.mutate(
                          { userId: m.user_id, role: next },
                          {
                            onSuccess: () => succeeded('Role changed', `${m.email} is now ${roleLabels[next].toLowerCase()}.`),
                            onError: (err) => failed('Role not changed', err, 'The role could not be changed.'),
                          },
                        );
                      }}
                    />
                  ) : (
                    <RoleBadge role={m.role_name} />
                  )}
                  {removable && (
                    <Button
                      variant="subtle"
                      color="red"
                      size="sm"
                      px="xs"
                      onClick={() => setRemoving(m)}
                      aria-label={`Remove ${m.email}`}
                      title={`Remove ${m.email}`}
                    >
                      <IconUserMinus size={18} aria-hidden />
                    </Button>
                  )}
                </Group>
              </Group>
            </Paper>
          );
        }}
        paging={{ kind: 'cursor', hasMore: members.hasNextPage, loading: members.isFetchingNextPage, onLoad: () => void members.fetchNextPage(), label: 'Load more members' }}
      />
      <ModalDialog opened={inviting} onClose={() => setInviting(false)} title="Invite Member">
        <InviteForm workspace={workspace} onDone={() => setInviting(false)} />
      </ModalDialog>
      <ModalDialog opened={removing !== null} onClose={() => setRemoving(null)} title="Remove member?">
        {removing && (
          <Stack gap="md">
            <Text style={{ overflowWrap: 'anywhere' }}>
              {removing.email} will lose access to {workspace.name} and its projects.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setRemoving(null)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(removing.user_id, {
                    onSuccess: () => {
                      succeeded('Member removed', `${removing.email} is no longer a member.`);
                      setRemoving(null);
                    },
                    onError: (err) => failed('Member not removed', err, 'The member could not be removed.'),
                  })
                }
              >
                Remove member
              </Button>
            </Group>
          </Stack>
        )}
      </ModalDialog>
    </Stack>
  );
}
