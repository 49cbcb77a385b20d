import type {
  AbsenceWire,
  AccountErrorWire,
  AccountObjectWire,
  BadgeCountsWire,
  CompanyWire,
  ConfigSpaceWire,
  ConfigWire,
  ConfirmEmailWire,
  DepartmentWire,
  HolidayWire,
  InvitationWire,
  MemberWire,
  MeWire,
  MyStatusWire,
  MyWorkingHoursWire,
  NoticeWire,
  ObjectsWire,
  OtpSetupWire,
  RolePresetName,
  SavedFilterWire,
  ScheduleSlotWire,
  ScheduleTemplateItemWire,
  ScheduleTemplateWire,
  SignupWire,
  TagWire,
  UserGroupWire,
  UserStatusWire,
  UsersWire,
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

export type Me = MeWire;
export type MessageResponse = NoticeWire;
export type SignupResponse = SignupWire;
/** The sign-in by a link or the rotated session of a password or 2FA change (no token: 2FA is on). */
export type MessageWithToken = ConfirmEmailWire;

export type ObjectsResponse = ObjectsWire;

export type OtpSetup = OtpSetupWire;

// ---------------------------------------------------------------- app shell (docs/product/entities.md Config)

/** docs/product/entities.md Space as GET /v1/config shows it, with the caller's roles and status in it. */
export type ConfigSpace = ConfigSpaceWire;

/** docs/product/entities.md User status (packages/shared statuses-wire.ts). */
export type UserStatus = UserStatusWire;

/** docs/product/entities.md Saved filter. */
export type SavedFilter = SavedFilterWire;

/** GET /v1/counts (and /v1/config's counters). */
export type Counts = BadgeCountsWire;

/** docs/product/entities.md Config (GET /v1/config). */
export type AppConfig = ConfigWire;

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
export type MyStatus = MyStatusWire;

/** docs/product/entities.md Working-hours item (GET /v1/me/workinghours). Times are unix seconds. */
export interface WorkingHoursItem {
  id: number;
  space_id?: number;
  started_at: number;
  ended_at: number;
  status: number | null;
}

export type MyWorkingHours = MyWorkingHoursWire;

// ---------------------------------------------------------------- settings

export type RoleName = RolePresetName | 'custom';

/** A member of a space in Settings → users (packages/shared users-wire.ts). */
export type Member = MemberWire;
export type Invitation = InvitationWire;
export type UsersResponse = UsersWire;

// Schedules (packages/shared workinghours-wire.ts).
/** A slot of a user's schedule (GET /v1/workinghours). */
export type ScheduleSlot = ScheduleSlotWire;
export type TemplateItem = ScheduleTemplateItemWire;
export type ScheduleTemplate = ScheduleTemplateWire;
export type Absence = AbsenceWire;
export type Holiday = HolidayWire;

export interface ItemsResponse<T> {
  items: T[];
}
