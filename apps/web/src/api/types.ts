import type {
  AccountErrorWire,
  AccountObjectWire,
  CompanyWire,
  DepartmentWire,
  Locale,
  ObjectsWire,
  RolePresetName,
  SpaceSettings,
  TagWire,
  Tariff,
  UserGroupWire,
} from '@otklik/shared';

// Wire shapes the web reads. Those declared in packages/shared are imported (the server's presenters are
// typed against them); the rest follow the server's presenters and are moved there in turn.

export interface ApiErrorBody {
  error?: string;
  error_type?: string;
  fields?: Record<string, string>;
  /** Provider sign-in without an email (error_type 'no_email') carries the provider's access token. */
  access_token?: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  /** Unix seconds. */
  expires_at?: number;
  token_type?: 'Bearer';
}

/** What `otklik.token` in localStorage holds. */
export interface StoredToken {
  access_token: string;
  refresh_token?: string;
  expires_at?: number;
}

export interface Me {
  id: number;
  name: string;
  email: string;
  /** Below 1: the email is not confirmed (docs/product/entities.md). */
  email_status: number;
  status: number | null;
  locale: Locale;
  roles: Record<string, boolean | number | undefined>;
  settings: Record<string, unknown>;
  is_partner: boolean;
  otp_enabled: boolean;
  has_password?: boolean;
}

export interface MessageResponse {
  message: string;
}

export interface SignupResponse {
  message: string;
  email: string;
}

export interface MessageWithToken {
  message: string;
  token?: TokenResponse;
}

export type ObjectsResponse = ObjectsWire;

export interface OtpSetup {
  secret: string;
  otpauth_url: string;
  /** data: URL of a PNG. */
  qr: string;
  recovery_codes: string[];
}

// ---------------------------------------------------------------- app shell (docs/product/entities.md Config)

/** docs/product/entities.md Space as GET /v1/config shows it, with the caller's roles and status in it. */
export interface ConfigSpace {
  id: number;
  name: string;
  /** Unix seconds. */
  expires_at: number;
  is_trial: boolean;
  tariff: Tariff;
  settings: Partial<SpaceSettings> & Record<string, unknown>;
  /** IANA time zone: schedules are laid out in it. */
  timezone: string;
  roles: Record<string, boolean>;
  /** The caller's current user status in this space. */
  status: number | null;
}

/** docs/product/entities.md User status. */
export interface UserStatus {
  id: number;
  name: string;
  color: string;
  hidden: boolean;
  offline: boolean;
  workinghours: boolean;
  space_id: number;
  position?: number;
}

/** docs/product/entities.md Saved filter. */
export interface SavedFilter {
  id: number;
  name: string;
  query: Record<string, unknown>;
  route: string | null;
}

export interface Counts {
  items_count?: number;
  chats_count?: number;
  issues_count?: number;
  issues_expired_count?: number;
  monitoring_count?: number;
}

/** docs/product/entities.md Config (GET /v1/config). */
export interface AppConfig extends Counts {
  user: Me;
  spaces: ConfigSpace[];
  user_statuses: UserStatus[];
  filters: SavedFilter[];
  emoji: Record<string, Array<{ char: string }>>;
  otp_required: boolean;
}

/** docs/product/entities.md Object (a connected account), as GET /v1/objects lists it. */
export type AccountObject = AccountObjectWire;

// Settings records: the shared wire shapes (packages/shared tags.ts, organisation-wire.ts).
export type Company = CompanyWire;
export type Department = DepartmentWire;
export type UserGroup = UserGroupWire;
export type Tag = TagWire;

export type ObjectsData = ObjectsWire;

/** One row of the errors dropdown (GET /v1/errors). */
export type AccountError = AccountErrorWire;

/** GET /v1/me/status. */
export interface MyStatus {
  status: number | null;
  space_id: number;
  changed_at: number | null;
  manual_at: number | null;
}

/** docs/product/entities.md Working-hours item (GET /v1/me/workinghours). Times are unix seconds. */
export interface WorkingHoursItem {
  id: number;
  space_id?: number;
  started_at: number;
  ended_at: number;
  status: number | null;
}

export interface MyWorkingHours {
  items: WorkingHoursItem[];
  updatedAt: number;
}

// ---------------------------------------------------------------- settings

export type RoleName = RolePresetName | 'custom';

/** A member of a space in Settings → users. */
export interface Member {
  id: number;
  name: string;
  email: string;
  email_status: number;
  space_id: number;
  role: RoleName;
  roles: Record<string, boolean>;
  group_id: number | null;
  department_ids: number[];
  status: number | null;
  otp_enabled: boolean;
  joined_at: number;
  last_seen: number | null;
}

export interface Invitation {
  id: number;
  email: string;
  space_id: number;
  role: RoleName;
  roles: Record<string, boolean>;
  created_at: number;
  expires_at: number;
}

export interface UsersResponse {
  items: Member[];
  invitations: Invitation[];
}

/** A slot of a user's schedule (GET /v1/workinghours). */
export interface ScheduleSlot extends WorkingHoursItem {
  space_id: number;
  user_id: number;
  applied_at: number | null;
  updated_at: number;
}

export interface TemplateItem {
  /** ISO weekday, 1 = Monday. */
  weekday: number;
  /** Minutes from local midnight. */
  start: number;
  /** Minutes from local midnight; past 1440 the slot ends the next day. */
  end: number;
  status_id: number | null;
}

export interface ScheduleTemplate {
  id: number;
  space_id: number;
  name: string;
  items: TemplateItem[];
}

export interface Absence {
  id: number;
  space_id: number;
  user_id: number;
  started_at: number;
  ended_at: number;
  reason: string | null;
}

export interface Holiday {
  id: number;
  space_id: number;
  /** YYYY-MM-DD in the space's time zone. */
  day: string;
  name: string;
}

export interface ItemsResponse<T> {
  items: T[];
}
