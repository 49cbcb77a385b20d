import type { CompanyWire, DepartmentWire, UserGroupWire } from '@otklik/shared';
import type { companies, departments, userGroups } from '../../db/schema';
import { companySettingsSchema } from './schemas';

// The same shapes GET /v1/objects, /v1/companies and /v1/usergroups already send (modules/spaces/data.ts).

export function presentCompany(company: typeof companies.$inferSelect): CompanyWire {
  return {
    id: company.id,
    name: company.name,
    space_id: company.spaceId,
    settings: companySettingsSchema.parse(company.settings),
  };
}

export function presentDepartment(department: typeof departments.$inferSelect): DepartmentWire {
  return { id: department.id, name: department.name, space_id: department.spaceId };
}

export function presentUserGroup(group: typeof userGroups.$inferSelect): UserGroupWire {
  return {
    id: group.id,
    name: group.name,
    space_id: group.spaceId,
    company_ids: group.companyIds,
    object_ids: group.objectIds,
  };
}
