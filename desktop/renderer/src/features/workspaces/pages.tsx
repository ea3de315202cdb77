import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange, IconDoorExit, IconMail, IconSettings, IconTrash, IconUserMinus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { emailSchema } from '../../../../../shared/auth';
import { messages } from '../../../../../shared/messages';
import { assignableRoles, can, roleLabels, type AssignableRole } from '../../../../../shared/permissions';
import type { PlanName } from '../../../../../shared/plans';
import { workspaceNameSchema, type InvitationDto, type MemberDto, type WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage, isApiError } from '../../api/client';
import { ConfirmDeleteModal } from '../../components/confirm-delete-modal';
import { ErrorView } from '../../components/error-view';
import { FactLine } from '../../components/fact-line';
import { FeatureUnavailable } from '../../components/feature-unavailable';
import { ModalDialog } from '../../components/modal-dialog';
import { NameForm } from '../../components/name-form';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { formatDate } from '../../lib/format';
import { meQueries } from '../account/queries';
import { createWorkspaceBlockedReason, inviteBlockedReason } from './limits';
import {
  useChangeMemberRole,
  useCreateWorkspace,
  useDeleteWorkspace,
  useInviteMember,
  useLeaveWorkspace,
  useRemoveMember,
  useRenameWorkspace,
  useRevokeInvitation,
  useTransferWorkspace,
  workspaceQueries,
} from './queries';
import { useSelectedWorkspace } from './selected-workspace';

const WORKSPACES: Crumb = { label: 'Workspaces', to: '/dashboard/workspaces' };

const failed = (title: string, error: unknown, fallback: string) =>
  notifications.show({ color: 'red', title, message: errorMessage(error, fallback) });
const succeeded = (title: string, message: string) => notifications.show({ color: 'green', title, message });

/** The workspace id of the route, or null when it is not a positive integer (answered like a 404). */
function useWorkspaceId(): number | null {
  const { id = '' } = useParams();
  const n = Number(id);
  return /^\d+$/.test(id) && Number.isSafeInteger(n) && n > 0 ? n : null;
}

const NOT_FOUND = 'Workspace not found.';

// ---- /dashboard/workspaces ----

export function WorkspacesPage() {
  const { workspaces, workspace: selected, select, isPending, error } = useSelectedWorkspace();
  const [creating, setCreating] = useState(false);
  // The user's own plan, read from the quota of a workspace they own.
  const owned = workspaces.find((w) => w.is_creator);
  const quota = useQuery({ ...workspaceQueries.quota(owned?.id ?? 0), enabled: !!owned });
  const reason = createWorkspaceBlockedReason(workspaces, quota.data?.subscription.currentPlan.name);

  return (
    <PageLayout title="Workspaces" description="Workspaces group projects and the people who work on them.">
      <SectionHeading title="Your workspaces" create={{ label: 'Create Workspace', onClick: () => setCreating(true), disabledReason: reason }} />
      {isPending ? (
        <PageLoader label="Loading workspaces…" />
      ) : error && workspaces.length === 0 ? (
        <ErrorView error={error} withRefresh />
      ) : workspaces.length === 0 ? (
        <Paper withBorder p="xl">
          <Text ta="center" c="dimmed">
            You are not in any workspace. Create one to start adding projects.
          </Text>
        </Paper>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {workspaces.map((w) => (
            <li key={w.id}>
              <Paper withBorder p="md">
                <Group justify="space-between" gap="sm">
                  <Stack gap={4} miw={0} style={{ flex: '1 1 220px' }}>
                    <Group gap="xs">
                      <Anchor component={Link} to={`/dashboard/workspaces/${w.id}`} fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
                        {w.name}
                      </Anchor>
                      <RoleBadge role={w.role_name} />
                      {selected?.id === w.id && (
                        <Badge variant="outline" color="gray" radius="sm">
                          Selected
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      Owner: {w.creator_email}
                    </Text>
                  </Stack>
                  <Group gap="xs">
                    {selected?.id !== w.id && (
                      <Button variant="default" size="sm" onClick={() => select(w.id)} aria-label={`Select ${w.name}`}>
                        Select
                      </Button>
                    )}
                    <Button
                      component={Link}
                      to={`/dashboard/workspaces/${w.id}`}
                      variant="light"
                      size="sm"
                      leftSection={<IconSettings size={16} aria-hidden />}
                      aria-label={`Manage ${w.name}`}
                    >
                      Manage
                    </Button>
                  </Group>
                </Group>
              </Paper>
            </li>
          ))}
        </Stack>
      )}
      <ModalDialog opened={creating} onClose={() => setCreating(false)} title="Create Workspace">
        <CreateWorkspaceForm onDone={() => setCreating(false)} />
      </ModalDialog>
    </PageLayout>
  );
}

function CreateWorkspaceForm({ onDone }: { onDone: () => void }) {
  const create = useCreateWorkspace();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Workspace name is not valid');
      return;
    }
    setError(null);
    create.mutate(parsed.data, {
      onSuccess: (workspace) => {
        succeeded('Workspace created', `${workspace.name} is ready. Invite members and add projects.`);
        onDone();
        navigate(`/dashboard/workspaces/${workspace.id}`);
      },
      onError: (err) => failed('Workspace not created', err, 'The workspace could not be created.'),
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Workspace name"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
          maxLength={200}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create Workspace
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

// ---- /dashboard/workspaces/:id ----

/** Loads the workspace of the route; renders the loader or the error (404 included) until it is there. */
function WithWorkspace({ title, crumbs, children }: { title: string; crumbs?: (w: WorkspaceDto | null) => Crumb[]; children: (w: WorkspaceDto) => ReactNode }) {
  const id = useWorkspaceId();
  const detail = useQuery({ ...workspaceQueries.detail(id ?? 0), enabled: id !== null });
  if (!detail.data) {
    return (
      <PageLayout title={title} breadcrumbs={crumbs?.(null) ?? [WORKSPACES, { label: title }]}>
        {id !== null && detail.isPending ? (
          <PageLoader label="Loading workspace…" />
        ) : (
          <ErrorView error={id === null ? NOT_FOUND : detail.error} withRefresh={id !== null && !isApiError(detail.error, 404)} />
        )}
      </PageLayout>
    );
  }
  return <>{children(detail.data)}</>;
}

export function WorkspacePage() {
  return (
    <WithWorkspace title="Workspace">
      {(workspace) => (
        <PageLayout
          title={workspace.name}
          breadcrumbs={[WORKSPACES, { label: workspace.name }]}
          description={
            <FactLine>
              <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                Owner: {workspace.creator_email}
              </Text>
              <Group gap="xs">
                <Text c="dimmed">Your role</Text>
                <RoleBadge role={workspace.role_name} />
              </Group>
            </FactLine>
          }
        >
          <WorkspaceSettings key={workspace.id} workspace={workspace} />
        </PageLayout>
      )}
    </WithWorkspace>
  );
}

function WorkspaceSettings({ workspace }: { workspace: WorkspaceDto }) {
  const role = workspace.role_name;
  return (
    <Stack gap="xl">
      {can(role, 'workspace.change_name') && <RenameWorkspace workspace={workspace} />}
      <Members workspace={workspace} />
      <Invitations workspace={workspace} />
      <OwnershipActions workspace={workspace} />
    </Stack>
  );
}

function RenameWorkspace({ workspace }: { workspace: WorkspaceDto }) {
  const rename = useRenameWorkspace(workspace.id);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          Name
        </Title>
        <NameForm
          label="Workspace name"
          initialName={workspace.name}
          schema={workspaceNameSchema}
          saving={rename.isPending}
          onSave={(name) =>
            rename.mutate(name, {
              onSuccess: (w) => succeeded('Workspace renamed', `The workspace is now called ${w.name}.`),
              onError: (err) => failed('Workspace not renamed', err, 'The workspace could not be renamed.'),
            })
          }
        />
      </Stack>
    </Paper>
  );
}

function Members({ workspace }: { workspace: WorkspaceDto }) {
  const role = workspace.role_name;
  const members = useQuery(workspaceQueries.members(workspace.id));
  const invitations = useQuery(workspaceQueries.invitations(workspace.id));
  const quota = useQuery(workspaceQueries.quota(workspace.id));
  const { data: me } = useQuery(meQueries.me());
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<MemberDto | null>(null);
  const changeRole = useChangeMemberRole(workspace.id);
  const remove = useRemoveMember(workspace.id);

  const plan: PlanName | undefined = quota.data?.subscription.currentPlan.name;
  const reason = inviteBlockedReason(role, members.data ? plan : undefined, members.data?.length ?? 0, invitations.data?.length ?? 0);

  return (
    <Stack gap="sm">
      <SectionHeading title="Members" create={{ label: 'Invite Member', onClick: () => setInviting(true), disabledReason: reason }} />
      {members.isPending ? (
        <PageLoader label="Loading members…" minHeight={80} />
      ) : members.isError ? (
        <ErrorView error={members.error} />
      ) : (
        <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Members">
          {members.data.map((m) => {
            const self = me?.id === m.user_id;
            const editable = !m.is_creator && can(role, 'members.update');
            const removable = !m.is_creator && !self && can(role, 'members.delete');
            return (
              <Paper component="li" key={m.user_id} withBorder p="sm" radius={0} style={{ marginTop: -1 }} data-member={m.email}>
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
          })}
        </Stack>
      )}
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

function InviteForm({ workspace, onDone }: { workspace: WorkspaceDto; onDone: () => void }) {
  const invite = useInviteMember(workspace.id);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('collaborator');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invite.isPending) return;
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? messages.signIn.emailInvalid);
      return;
    }
    setError(null);
    invite.mutate(
      { email: parsed.data, role },
      {
        onSuccess: (inv) => {
          succeeded('Invitation sent', `${inv.email} has been invited as ${roleLabels[inv.role_name].toLowerCase()}.`);
          onDone();
        },
        onError: (err) => failed('Invitation not sent', err, 'The invitation could not be sent.'),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          We e-mail a link to join {workspace.name}. It works once and expires in 7 days.
        </Text>
        <TextInput
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
          data-autofocus
        />
        <NativeSelect
          label="Role"
          value={role}
          onChange={(e) => setRole(e.currentTarget.value as AssignableRole)}
          data={assignableRoles.map((r) => ({ value: r, label: roleLabels[r] }))}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending} leftSection={<IconMail size={16} aria-hidden />}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Invitations({ workspace }: { workspace: WorkspaceDto }) {
  const invitations = useQuery(workspaceQueries.invitations(workspace.id));
  const revoke = useRevokeInvitation(workspace.id);
  const canRevoke = can(workspace.role_name, 'invites.delete');
  return (
    <Stack gap="sm">
      <SectionHeading title="Pending invitations" />
      {invitations.isPending ? (
        <PageLoader label="Loading invitations…" minHeight={80} />
      ) : invitations.isError ? (
        <ErrorView error={invitations.error} />
      ) : invitations.data.length === 0 ? (
        <Text c="dimmed" size="sm">
          No pending invitations.
        </Text>
      ) : (
        <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Pending invitations">
          {invitations.data.map((inv: InvitationDto) => (
            <Paper component="li" key={inv.id} withBorder p="sm" radius={0} style={{ marginTop: -1 }}>
              <Group justify="space-between" gap="sm">
                <Stack gap={2} miw={0} style={{ flex: '1 1 200px' }}>
                  <Group gap="xs">
                    <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {inv.email}
                    </Text>
                    <RoleBadge role={inv.role_name} />
                  </Group>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {inv.invited_by_email ? `Invited by ${inv.invited_by_email} · ` : ''}Expires {formatDate(inv.expires_at)}
                  </Text>
                </Stack>
                {canRevoke && (
                  <Button
                    variant="subtle"
                    color="red"
                    size="sm"
                    loading={revoke.isPending && revoke.variables === inv.id}
                    onClick={() =>
                      revoke.mutate(inv.id, {
                        onSuccess: () => succeeded('Invitation revoked', `The link sent to ${inv.email} no longer works.`),
                        onError: (err) => failed('Invitation not revoked', err, 'The invitation could not be revoked.'),
                      })
                    }
                    aria-label={`Revoke invitation for ${inv.email}`}
                  >
                    Revoke
                  </Button>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Transfer and delete for the owner, leave for everyone else. */
function OwnershipActions({ workspace }: { workspace: WorkspaceDto }) {
  const role = workspace.role_name;
  const navigate = useNavigate();
  const del = useDeleteWorkspace(workspace.id);
  const leave = useLeaveWorkspace(workspace.id);
  const [deleting, setDeleting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const canTransfer = can(role, 'workspace.transfer');
  const canDelete = can(role, 'workspace.delete');
  const canLeave = can(role, 'workspace.leave');
  if (!canTransfer && !canDelete && !canLeave) return null;

  return (
    <Paper withBorder p="md" style={{ borderColor: 'var(--mantine-color-red-3)' }}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {canLeave ? 'Leave workspace' : 'Ownership'}
        </Title>
        {canTransfer && (
          <Group justify="space-between" gap="sm">
            <Text size="sm" style={{ flex: '1 1 240px' }}>
              Make another member the owner. You stay in the workspace as an administrator.
            </Text>
            <Button
              component={Link}
              to={`/dashboard/workspaces/${workspace.id}/transfer`}
              variant="default"
              leftSection={<IconArrowsExchange size={16} aria-hidden />}
            >
              Transfer workspace
            </Button>
          </Group>
        )}
        {canDelete && (
          <Group justify="space-between" gap="sm">
            <Text size="sm" style={{ flex: '1 1 240px' }}>
              Deleting the workspace removes its projects, members and invitations for good.
            </Text>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
              Delete workspace
            </Button>
          </Group>
        )}
        {canLeave && (
          <Group justify="space-between" gap="sm">
            <Text size="sm" style={{ flex: '1 1 240px' }}>
              You will lose access to this workspace and its projects until someone invites you again.
            </Text>
            <Button color="red" variant="light" leftSection={<IconDoorExit size={16} aria-hidden />} onClick={() => setLeaving(true)}>
              Leave workspace
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmDeleteModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={`Delete ${workspace.name}?`}
        confirmation={workspace.name}
        checkbox="I understand that every project in this workspace is deleted with it."
        loading={del.isPending}
        onConfirm={() =>
          del.mutate(undefined, {
            onSuccess: () => {
              setDeleting(false);
              succeeded('Workspace deleted', `${workspace.name} has been deleted.`);
              navigate('/dashboard/workspaces');
            },
            onError: (err) => failed('Workspace not deleted', err, 'The workspace could not be deleted.'),
          })
        }
      />
      <ModalDialog opened={leaving} onClose={() => setLeaving(false)} title={`Leave ${workspace.name}?`}>
        <Stack gap="md">
          <Text>You will lose access to this workspace and its projects. To come back, someone has to invite you again.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setLeaving(false)} disabled={leave.isPending}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={leave.isPending}
              onClick={() =>
                leave.mutate(undefined, {
                  onSuccess: () => {
                    setLeaving(false);
                    succeeded('Workspace left', `You are no longer a member of ${workspace.name}.`);
                    navigate('/dashboard/workspaces');
                  },
                  onError: (err) => failed('Could not leave', err, 'You could not leave the workspace.'),
                })
              }
            >
              Leave workspace
            </Button>
          </Group>
        </Stack>
      </ModalDialog>
    </Paper>
  );
}

// ---- /dashboard/workspaces/:id/transfer ----

export function TransferWorkspacePage() {
  return (
    <WithWorkspace
      title="Transfer workspace"
      crumbs={() => [WORKSPACES, { label: 'Workspace' }, { label: 'Transfer workspace' }]}
    >
      {(workspace) => (
        <PageLayout
          title="Transfer workspace"
          breadcrumbs={[WORKSPACES, { label: workspace.name, to: `/dashboard/workspaces/${workspace.id}` }, { label: 'Transfer workspace' }]}
          description={`Make another member of ${workspace.name} its owner. The workspace then runs on their plan, and you stay as an administrator.`}
        >
          {can(workspace.role_name, 'workspace.transfer') ? (
            <TransferForm workspace={workspace} />
          ) : (
            <Alert color="yellow" variant="light">
              Only the owner can transfer the workspace.
            </Alert>
          )}
        </PageLayout>
      )}
    </WithWorkspace>
  );
}

function TransferForm({ workspace }: { workspace: WorkspaceDto }) {
  const navigate = useNavigate();
  const members = useQuery(workspaceQueries.members(workspace.id));
  const [choice, setChoice] = useState('');
  const newOwnerId = choice ? Number(choice) : null;
  const plan = useQuery({ ...workspaceQueries.transferPlan(workspace.id, newOwnerId ?? 0), enabled: newOwnerId !== null });
  const transfer = useTransferWorkspace(workspace.id);

  if (members.isPending) return <PageLoader label="Loading members…" />;
  if (members.isError) return <ErrorView error={members.error} withRefresh />;
  const candidates = members.data.filter((m) => !m.is_creator);
  if (candidates.length === 0) {
    return (
      <Alert color="gray" variant="light">
        {workspace.name} has no other members yet. Invite someone on the{' '}
        <Anchor component={Link} to={`/dashboard/workspaces/${workspace.id}`}>
          workspace page
        </Anchor>{' '}
        first; you can transfer the workspace to them once they have joined.
      </Alert>
    );
  }

  const result = plan.data;
  const allowed = !!result?.allowed && !plan.isFetching;
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <NativeSelect
          label="New owner"
          value={choice}
          onChange={(e) => setChoice(e.currentTarget.value)}
          data={[
            { value: '', label: 'Choose a member' },
            ...candidates.map((m) => ({ value: String(m.user_id), label: `${m.email} (${roleLabels[m.role_name]})` })),
          ]}
        />
        {newOwnerId !== null &&
          (plan.isPending ? (
            <PageLoader label="Checking what the transfer would change…" minHeight={80} />
          ) : plan.isError ? (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(plan.error, 'Could not check the transfer.')}
            </Alert>
          ) : (
            result && (
              <Stack gap="sm" aria-live="polite">
                <Title order={2} size="h4">
                  What changes
                </Title>
                <List size="sm" spacing={4}>
                  <List.Item>
                    {result.newOwner.email} becomes the owner (now {roleLabels[result.newOwner.currentRole].toLowerCase()}).
                  </List.Item>
                  <List.Item>You become {roleLabels[result.changes.previousOwnerRole].toLowerCase()}.</List.Item>
                  <List.Item>
                    The workspace runs on their {result.changes.plan} plan; {result.changes.projectsMoving}{' '}
                    {result.changes.projectsMoving === 1 ? 'project moves' : 'projects move'} with it.
                  </List.Item>
                </List>
                <Text size="sm" c="dimmed">
                  Afterwards they would own {result.after.workspaceCount} workspace{result.after.workspaceCount === 1 ? '' : 's'} with{' '}
                  {result.after.projectCount} project{result.after.projectCount === 1 ? '' : 's'}, and this workspace would have{' '}
                  {result.after.workspaceMembers} member{result.after.workspaceMembers === 1 ? '' : 's'}.
                </Text>
                {result.blockers.length > 0 && (
                  <Alert color="red" variant="light" title="The transfer is not possible" role="alert">
                    <List size="sm" spacing={4}>
                      {result.blockers.map((b) => (
                        <List.Item key={b.limit}>{b.message}</List.Item>
                      ))}
                    </List>
                  </Alert>
                )}
              </Stack>
            )
          ))}
        <Group justify="flex-end" gap="sm">
          <Button component={Link} to={`/dashboard/workspaces/${workspace.id}`} variant="default">
            Cancel
          </Button>
          <Button
            disabled={!allowed}
            loading={transfer.isPending}
            leftSection={<IconArrowsExchange size={16} aria-hidden />}
            onClick={() =>
              newOwnerId !== null &&
              transfer.mutate(newOwnerId, {
                onSuccess: () => {
                  succeeded('Workspace transferred', `${result?.newOwner.email ?? 'The new owner'} now owns ${workspace.name}.`);
                  navigate(`/dashboard/workspaces/${workspace.id}`);
                },
                onError: (err) => failed('Workspace not transferred', err, 'The workspace could not be transferred.'),
              })
            }
          >
            Transfer
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

// ---- orders (pay as you go): a later issue ----

function useWorkspaceCrumb(): Crumb {
  const { id = '' } = useParams();
  return { label: 'Workspace', to: `/dashboard/workspaces/${encodeURIComponent(id)}` };
}

export function WorkspaceOrderPage() {
  const workspace = useWorkspaceCrumb();
  return (
    <PageLayout title="Order" breadcrumbs={[WORKSPACES, workspace, { label: 'Order' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function WorkspaceOrderDetailPage() {
  const workspace = useWorkspaceCrumb();
  return (
    <PageLayout title="Order" breadcrumbs={[WORKSPACES, workspace, { label: 'Order' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}
