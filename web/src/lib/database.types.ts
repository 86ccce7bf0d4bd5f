export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  public: {
    Tables: {
      application_mail_templates: {
        Row: {
          body: string
          status: Database["public"]["Enums"]["application_status"]
          subject: string
          updated_at: string
          updated_by: string | null
        }
        Insert: {
          body: string
          status: Database["public"]["Enums"]["application_status"]
          subject: string
          updated_at?: string
          updated_by?: string | null
        }
        Update: {
          body?: string
          status?: Database["public"]["Enums"]["application_status"]
          subject?: string
          updated_at?: string
          updated_by?: string | null
        }
        Relationships: []
      }
      application_pipeline: {
        Row: {
          application_id: string
          consultant_id: string | null
          status: Database["public"]["Enums"]["application_status"]
          status_changed_at: string
          updated_at: string
        }
        Insert: {
          application_id: string
          consultant_id?: string | null
          status?: Database["public"]["Enums"]["application_status"]
          status_changed_at?: string
          updated_at?: string
        }
        Update: {
          application_id?: string
          consultant_id?: string | null
          status?: Database["public"]["Enums"]["application_status"]
          status_changed_at?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "application_pipeline_application_id_fkey"
            columns: ["application_id"]
            isOneToOne: true
            referencedRelation: "applications"
            referencedColumns: ["id"]
          },
        ]
      }
      application_status_changes: {
        Row: {
          application_id: string
          changed_at: string
          changed_by: string | null
          from_status: Database["public"]["Enums"]["application_status"]
          id: number
          mail_id: number | null
          to_status: Database["public"]["Enums"]["application_status"]
        }
        Insert: {
          application_id: string
          changed_at?: string
          changed_by?: string | null
          from_status: Database["public"]["Enums"]["application_status"]
          id?: never
          mail_id?: number | null
          to_status: Database["public"]["Enums"]["application_status"]
        }
        Update: {
          application_id?: string
          changed_at?: string
          changed_by?: string | null
          from_status?: Database["public"]["Enums"]["application_status"]
          id?: never
          mail_id?: number | null
          to_status?: Database["public"]["Enums"]["application_status"]
        }
        Relationships: [
          {
            foreignKeyName: "application_status_changes_application_id_fkey"
            columns: ["application_id"]
            isOneToOne: false
            referencedRelation: "applications"
            referencedColumns: ["id"]
          },
        ]
      }
      applications: {
        Row: {
          cover_letter: string | null
          created_at: string
          cv_object: string
          email: string
          first_name: string
          id: string
          job_id: string | null
          last_name: string
          phone: string
          privacy_consent: boolean
          user_id: string | null
        }
        Insert: {
          cover_letter?: string | null
          created_at?: string
          cv_object: string
          email: string
          first_name: string
          id?: string
          job_id?: string | null
          last_name: string
          phone: string
          privacy_consent: boolean
          user_id?: string | null
        }
        Update: {
          cover_letter?: string | null
          created_at?: string
          cv_object?: string
          email?: string
          first_name?: string
          id?: string
          job_id?: string | null
          last_name?: string
          phone?: string
          privacy_consent?: boolean
          user_id?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "applications_job_id_fkey"
            columns: ["job_id"]
            isOneToOne: false
            referencedRelation: "jobs"
            referencedColumns: ["id"]
          },
        ]
      }
      audit_log: {
        Row: {
          action: string
          actor_email: string | null
          actor_id: string | null
          actor_role: string
          at: string
          changed_fields: string[] | null
          id: number
          new_data: Json | null
          old_data: Json | null
          record_id: string | null
          subject: string | null
          table_name: string
        }
        Insert: {
          action: string
          actor_email?: string | null
          actor_id?: string | null
          actor_role: string
          at?: string
          changed_fields?: string[] | null
          id?: never
          new_data?: Json | null
          old_data?: Json | null
          record_id?: string | null
          subject?: string | null
          table_name: string
        }
        Update: {
          action?: string
          actor_email?: string | null
          actor_id?: string | null
          actor_role?: string
          at?: string
          changed_fields?: string[] | null
          id?: never
          new_data?: Json | null
          old_data?: Json | null
          record_id?: string | null
          subject?: string | null
          table_name?: string
        }
        Relationships: []
      }
      candidate_profiles: {
        Row: {
          candidate_id: string
          candidate_reference: string | null
          created_at: string
          details: string | null
          email: string | null
          external_id: string | null
          id: string
          job_title: string | null
          location: string | null
          name: string
          slug: string
          source: string | null
          status: string
          updated_at: string
        }
        Insert: {
          candidate_id: string
          candidate_reference?: string | null
          created_at?: string
          details?: string | null
          email?: string | null
          external_id?: string | null
          id?: string
          job_title?: string | null
          location?: string | null
          name: string
          slug?: string
          source?: string | null
          status?: string
          updated_at?: string
        }
        Update: {
          candidate_id?: string
          candidate_reference?: string | null
          created_at?: string
          details?: string | null
          email?: string | null
          external_id?: string | null
          id?: string
          job_title?: string | null
          location?: string | null
          name?: string
          slug?: string
          source?: string | null
          status?: string
          updated_at?: string
        }
        Relationships: []
      }
      cv_documents: {
        Row: {
          created_at: string
          data: Json
          id: string
          size_bytes: number
          title: string
          updated_at: string
          user_id: string
        }
        Insert: {
          created_at?: string
          data?: Json
          id?: string
          size_bytes?: number
          title?: string
          updated_at?: string
          user_id?: string
        }
        Update: {
          created_at?: string
          data?: Json
          id?: string
          size_bytes?: number
          title?: string
          updated_at?: string
          user_id?: string
        }
        Relationships: []
      }
      desk_notes: {
        Row: {
          application_id: string | null
          author_id: string | null
          body: string
          created_at: string
          enquiry_id: string | null
          id: string
        }
        Insert: {
          application_id?: string | null
          author_id?: string | null
          body: string
          created_at?: string
          enquiry_id?: string | null
          id?: string
        }
        Update: {
          application_id?: string | null
          author_id?: string | null
          body?: string
          created_at?: string
          enquiry_id?: string | null
          id?: string
        }
        Relationships: [
          {
            foreignKeyName: "desk_notes_application_id_fkey"
            columns: ["application_id"]
            isOneToOne: false
            referencedRelation: "applications"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "desk_notes_enquiry_id_fkey"
            columns: ["enquiry_id"]
            isOneToOne: false
            referencedRelation: "enquiries"
            referencedColumns: ["id"]
          },
        ]
      }
      enquiries: {
        Row: {
          company: string | null
          created_at: string
          email: string
          handled: boolean
          handled_at: string | null
          handled_by: string | null
          id: string
          kind: string
          message: string | null
          name: string
          phone: string | null
          source_page: string | null
          updated_at: string
        }
        Insert: {
          company?: string | null
          created_at?: string
          email: string
          handled?: boolean
          handled_at?: string | null
          handled_by?: string | null
          id?: string
          kind?: string
          message?: string | null
          name: string
          phone?: string | null
          source_page?: string | null
          updated_at?: string
        }
        Update: {
          company?: string | null
          created_at?: string
          email?: string
          handled?: boolean
          handled_at?: string | null
          handled_by?: string | null
          id?: string
          kind?: string
          message?: string | null
          name?: string
          phone?: string | null
          source_page?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      featured_jobs: {
        Row: {
          created_at: string
          custom_company: string | null
          custom_excerpt: string
          custom_location: string | null
          custom_salary: string | null
          custom_sector: string | null
          custom_title: string | null
          custom_type: string | null
          display_order: number
          id: string
          is_active: boolean
          job_id: string
          tags: string[]
          updated_at: string
        }
        Insert: {
          created_at?: string
          custom_company?: string | null
          custom_excerpt: string
          custom_location?: string | null
          custom_salary?: string | null
          custom_sector?: string | null
          custom_title?: string | null
          custom_type?: string | null
          display_order: number
          id?: string
          is_active?: boolean
          job_id: string
          tags?: string[]
          updated_at?: string
        }
        Update: {
          created_at?: string
          custom_company?: string | null
          custom_excerpt?: string
          custom_location?: string | null
          custom_salary?: string | null
          custom_sector?: string | null
          custom_title?: string | null
          custom_type?: string | null
          display_order?: number
          id?: string
          is_active?: boolean
          job_id?: string
          tags?: string[]
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "featured_jobs_job_id_fkey"
            columns: ["job_id"]
            isOneToOne: true
            referencedRelation: "jobs"
            referencedColumns: ["id"]
          },
        ]
      }
      job_alerts: {
        Row: {
          confirm_token_hash: string | null
          confirmed_at: string | null
          consent_at: string
          consent_text: string
          created_at: string
          email: string
          employment_types:
            | Database["public"]["Enums"]["employment_type"][]
            | null
          frequency: Database["public"]["Enums"]["alert_frequency"]
          id: string
          last_sent_at: string | null
          location: string | null
          q: string | null
          query: unknown
          regions: Database["public"]["Enums"]["uk_region"][] | null
          salary_min: number | null
          sectors: string[] | null
          status: Database["public"]["Enums"]["job_alert_status"]
          updated_at: string
          user_id: string | null
          work_arrangements:
            | Database["public"]["Enums"]["work_arrangement"][]
            | null
        }
        Insert: {
          confirm_token_hash?: string | null
          confirmed_at?: string | null
          consent_at?: string
          consent_text: string
          created_at?: string
          email: string
          employment_types?:
            | Database["public"]["Enums"]["employment_type"][]
            | null
          frequency?: Database["public"]["Enums"]["alert_frequency"]
          id?: string
          last_sent_at?: string | null
          location?: string | null
          q?: string | null
          query?: unknown
          regions?: Database["public"]["Enums"]["uk_region"][] | null
          salary_min?: number | null
          sectors?: string[] | null
          status?: Database["public"]["Enums"]["job_alert_status"]
          updated_at?: string
          user_id?: string | null
          work_arrangements?:
            | Database["public"]["Enums"]["work_arrangement"][]
            | null
        }
        Update: {
          confirm_token_hash?: string | null
          confirmed_at?: string | null
          consent_at?: string
          consent_text?: string
          created_at?: string
          email?: string
          employment_types?:
            | Database["public"]["Enums"]["employment_type"][]
            | null
          frequency?: Database["public"]["Enums"]["alert_frequency"]
          id?: string
          last_sent_at?: string | null
          location?: string | null
          q?: string | null
          query?: unknown
          regions?: Database["public"]["Enums"]["uk_region"][] | null
          salary_min?: number | null
          sectors?: string[] | null
          status?: Database["public"]["Enums"]["job_alert_status"]
          updated_at?: string
          user_id?: string | null
          work_arrangements?:
            | Database["public"]["Enums"]["work_arrangement"][]
            | null
        }
        Relationships: []
      }
      jobs: {
        Row: {
          benefits: string[]
          client_type: string | null
          closing_date: string | null
          company: string
          consultant_email: string | null
          consultant_name: string | null
          created_at: string
          description: string | null
          description_html: string | null
          employment_type: Database["public"]["Enums"]["employment_type"] | null
          external_id: string | null
          hero_image: string | null
          id: string
          job_id: string | null
          location: string | null
          posted_date: string
          published_at: string | null
          region: Database["public"]["Enums"]["uk_region"] | null
          requirements: string | null
          requirements_html: string | null
          salary: string | null
          salary_max: number | null
          salary_min: number | null
          salary_period: Database["public"]["Enums"]["salary_period"]
          search_vector: unknown
          sector: string | null
          status: string
          title: string
          type: string | null
          updated_at: string
          work_arrangement:
            | Database["public"]["Enums"]["work_arrangement"]
            | null
        }
        Insert: {
          benefits?: string[]
          client_type?: string | null
          closing_date?: string | null
          company: string
          consultant_email?: string | null
          consultant_name?: string | null
          created_at?: string
          description?: string | null
          description_html?: string | null
          employment_type?:
            | Database["public"]["Enums"]["employment_type"]
            | null
          external_id?: string | null
          hero_image?: string | null
          id?: string
          job_id?: string | null
          location?: string | null
          posted_date?: string
          published_at?: string | null
          region?: Database["public"]["Enums"]["uk_region"] | null
          requirements?: string | null
          requirements_html?: string | null
          salary?: string | null
          salary_max?: number | null
          salary_min?: number | null
          salary_period?: Database["public"]["Enums"]["salary_period"]
          search_vector?: unknown
          sector?: string | null
          status?: string
          title: string
          type?: string | null
          updated_at?: string
          work_arrangement?:
            | Database["public"]["Enums"]["work_arrangement"]
            | null
        }
        Update: {
          benefits?: string[]
          client_type?: string | null
          closing_date?: string | null
          company?: string
          consultant_email?: string | null
          consultant_name?: string | null
          created_at?: string
          description?: string | null
          description_html?: string | null
          employment_type?:
            | Database["public"]["Enums"]["employment_type"]
            | null
          external_id?: string | null
          hero_image?: string | null
          id?: string
          job_id?: string | null
          location?: string | null
          posted_date?: string
          published_at?: string | null
          region?: Database["public"]["Enums"]["uk_region"] | null
          requirements?: string | null
          requirements_html?: string | null
          salary?: string | null
          salary_max?: number | null
          salary_min?: number | null
          salary_period?: Database["public"]["Enums"]["salary_period"]
          search_vector?: unknown
          sector?: string | null
          status?: string
          title?: string
          type?: string | null
          updated_at?: string
          work_arrangement?:
            | Database["public"]["Enums"]["work_arrangement"]
            | null
        }
        Relationships: []
      }
      profile_client_links: {
        Row: {
          client_company: string
          client_name: string
          consent_id: string
          created_at: string
          created_by: string | null
          expires_at: string
          id: string
          profile_id: string
          revoked: boolean
          revoked_at: string | null
          revoked_by: string | null
          token_hash: string
          updated_at: string
        }
        Insert: {
          client_company: string
          client_name: string
          consent_id: string
          created_at?: string
          created_by?: string | null
          expires_at: string
          id?: string
          profile_id: string
          revoked?: boolean
          revoked_at?: string | null
          revoked_by?: string | null
          token_hash: string
          updated_at?: string
        }
        Update: {
          client_company?: string
          client_name?: string
          consent_id?: string
          created_at?: string
          created_by?: string | null
          expires_at?: string
          id?: string
          profile_id?: string
          revoked?: boolean
          revoked_at?: string | null
          revoked_by?: string | null
          token_hash?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "profile_client_links_consent_id_fkey"
            columns: ["consent_id"]
            isOneToOne: false
            referencedRelation: "profile_consents"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "profile_client_links_profile_id_fkey"
            columns: ["profile_id"]
            isOneToOne: false
            referencedRelation: "candidate_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      profile_consents: {
        Row: {
          given_on: string
          id: string
          method: Database["public"]["Enums"]["consent_method"]
          profile_id: string
          recorded_at: string
          recorded_by: string | null
          scope: string | null
          withdrawn: boolean
          withdrawn_at: string | null
          withdrawn_by: string | null
        }
        Insert: {
          given_on: string
          id?: string
          method: Database["public"]["Enums"]["consent_method"]
          profile_id: string
          recorded_at?: string
          recorded_by?: string | null
          scope?: string | null
          withdrawn?: boolean
          withdrawn_at?: string | null
          withdrawn_by?: string | null
        }
        Update: {
          given_on?: string
          id?: string
          method?: Database["public"]["Enums"]["consent_method"]
          profile_id?: string
          recorded_at?: string
          recorded_by?: string | null
          scope?: string | null
          withdrawn?: boolean
          withdrawn_at?: string | null
          withdrawn_by?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "profile_consents_profile_id_fkey"
            columns: ["profile_id"]
            isOneToOne: false
            referencedRelation: "candidate_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      profile_views: {
        Row: {
          by_admin: boolean
          client_link_id: string | null
          id: string
          is_bot: boolean
          is_repeat: boolean
          new_viewer: boolean
          profile_id: string
          referrer: string | null
          user_agent: string | null
          user_id: string | null
          viewed_at: string
          visitor_hash: number | null
        }
        Insert: {
          by_admin?: boolean
          client_link_id?: string | null
          id?: string
          is_bot?: boolean
          is_repeat?: boolean
          new_viewer?: boolean
          profile_id: string
          referrer?: string | null
          user_agent?: string | null
          user_id?: string | null
          viewed_at?: string
          visitor_hash?: number | null
        }
        Update: {
          by_admin?: boolean
          client_link_id?: string | null
          id?: string
          is_bot?: boolean
          is_repeat?: boolean
          new_viewer?: boolean
          profile_id?: string
          referrer?: string | null
          user_agent?: string | null
          user_id?: string | null
          viewed_at?: string
          visitor_hash?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "profile_views_client_link_id_fkey"
            columns: ["client_link_id"]
            isOneToOne: false
            referencedRelation: "profile_client_links"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "profile_views_profile_id_fkey"
            columns: ["profile_id"]
            isOneToOne: false
            referencedRelation: "candidate_profiles"
            referencedColumns: ["id"]
          },
        ]
      }
      saved_jobs: {
        Row: {
          created_at: string
          job_id: string
          user_id: string
        }
        Insert: {
          created_at?: string
          job_id: string
          user_id?: string
        }
        Update: {
          created_at?: string
          job_id?: string
          user_id?: string
        }
        Relationships: [
          {
            foreignKeyName: "saved_jobs_job_id_fkey"
            columns: ["job_id"]
            isOneToOne: false
            referencedRelation: "jobs"
            referencedColumns: ["id"]
          },
        ]
      }
      site_settings: {
        Row: {
          firm_email: string | null
          id: boolean
          logo_path: string
          site_name: string
          site_url: string
          updated_at: string
        }
        Insert: {
          firm_email?: string | null
          id?: boolean
          logo_path?: string
          site_name: string
          site_url: string
          updated_at?: string
        }
        Update: {
          firm_email?: string | null
          id?: boolean
          logo_path?: string
          site_name?: string
          site_url?: string
          updated_at?: string
        }
        Relationships: []
      }
      user_roles: {
        Row: {
          created_at: string
          id: string
          role: string
          user_id: string
        }
        Insert: {
          created_at?: string
          id?: string
          role: string
          user_id: string
        }
        Update: {
          created_at?: string
          id?: string
          role?: string
          user_id?: string
        }
        Relationships: []
      }
    }
    Views: {
      [_ in never]: never
    }
    Functions: {
      admin_application: { Args: { application_id: string }; Returns: Json }
      admin_application_export: {
        Args: {
          from_day?: string
          job_id?: string
          search?: string
          status?: string
          to_day?: string
        }
        Returns: {
          applied_at: string
          candidate_sees: string
          consultant: string
          cv_file: string
          email: string
          first_name: string
          job_ref: string
          job_title: string
          last_name: string
          notes: number
          phone: string
          pipeline_status: Database["public"]["Enums"]["application_status"]
        }[]
      }
      admin_application_page: {
        Args: {
          from_day?: string
          job_id?: string
          page_offset?: number
          page_size?: number
          search?: string
          status?: string
          to_day?: string
        }
        Returns: Json
      }
      admin_assign_consultant: {
        Args: { application_ids: string[]; consultant_id: string }
        Returns: number
      }
      admin_candidate_profile_page: {
        Args: { page_offset?: number; page_size?: number; search?: string }
        Returns: Json
      }
      admin_candidate_profiles: {
        Args: never
        Returns: {
          candidate_id: string
          candidate_reference: string | null
          created_at: string
          details: string | null
          email: string | null
          external_id: string | null
          id: string
          job_title: string | null
          location: string | null
          name: string
          slug: string
          source: string | null
          status: string
          updated_at: string
        }[]
        SetofOptions: {
          from: "*"
          to: "candidate_profiles"
          isOneToOne: false
          isSetofReturn: true
        }
      }
      admin_client_link_views: {
        Args: { page_offset?: number; page_size?: number }
        Returns: Json
      }
      admin_create_client_link: {
        Args: {
          client_company: string
          client_name: string
          expires_at?: string
          profile_id: string
        }
        Returns: Json
      }
      admin_desk_summary: { Args: never; Returns: Json }
      admin_enquiry: { Args: { enquiry_id: string }; Returns: Json }
      admin_enquiry_export: {
        Args: { handled?: boolean; kind?: string; search?: string }
        Returns: {
          company: string
          email: string
          enquiry_kind: string
          handled_at: string
          handled_by: string
          is_handled: boolean
          message: string
          name: string
          notes: number
          phone: string
          received_at: string
          source_page: string
        }[]
      }
      admin_enquiry_page: {
        Args: {
          handled?: boolean
          kind?: string
          page_offset?: number
          page_size?: number
          search?: string
        }
        Returns: Json
      }
      admin_import_jobs: {
        Args: { apply?: boolean; file_name?: string; rows: Json }
        Returns: Json
      }
      admin_job_overview: { Args: { list_limit?: number }; Returns: Json }
      admin_job_page: {
        Args: {
          issue?: string
          job_status?: string
          page_offset?: number
          page_size?: number
          search?: string
          sector?: string
          sort?: string
        }
        Returns: Json
      }
      admin_mark_applications_seen: { Args: never; Returns: string }
      admin_profile_analytics: {
        Args: { days?: number; page_offset?: number; page_size?: number }
        Returns: Json
      }
      admin_profile_clients: {
        Args: { profile_ids: string[] }
        Returns: {
          client_company: string
          client_name: string
          last_viewed: string
          link_id: string
          profile_id: string
          views: number
        }[]
      }
      admin_profile_figures: {
        Args: never
        Returns: {
          candidate_id: string
          candidate_reference: string
          first_viewed: string
          id: string
          job_title: string
          last_viewed: string
          name: string
          status: string
          unique_viewers: number
          views: number
        }[]
      }
      admin_profile_sharing: { Args: { profile_id: string }; Returns: Json }
      admin_profile_view_trend: {
        Args: { days?: number; profile_id: string }
        Returns: Json
      }
      admin_record_job_import: {
        Args: {
          file_name: string
          inserted: number
          row_count: number
          updated: number
        }
        Returns: undefined
      }
      admin_set_application_status: {
        Args: {
          application_ids: string[]
          note?: string
          notify?: boolean
          status: string
        }
        Returns: Json
      }
      admin_staff: {
        Args: never
        Returns: {
          email: string
          id: string
          name: string
        }[]
      }
      admin_upsert_job: {
        Args: { item: Json }
        Returns: Record<string, unknown>
      }
      client_profile: { Args: { token: string }; Returns: Json }
      create_job_alert: {
        Args: {
          consent_text: string
          email: string
          employment_types?: Database["public"]["Enums"]["employment_type"][]
          frequency?: Database["public"]["Enums"]["alert_frequency"]
          location?: string
          q?: string
          regions?: Database["public"]["Enums"]["uk_region"][]
          salary_min?: number
          sectors?: string[]
          work_arrangements?: Database["public"]["Enums"]["work_arrangement"][]
        }
        Returns: Json
      }
      delete_admin_profile_views: { Args: never; Returns: number }
      delete_my_account: { Args: { confirmation: string }; Returns: Json }
      employment_type_label: {
        Args: { t: Database["public"]["Enums"]["employment_type"] }
        Returns: string
      }
      export_my_data: { Args: never; Returns: Json }
      export_my_data_part: {
        Args: { part: string; skip?: number }
        Returns: Json
      }
      html_escape: { Args: { value: string }; Returns: string }
      html_without_entities: { Args: { html: string }; Returns: string }
      indeed_job_type: {
        Args: { t: Database["public"]["Enums"]["employment_type"] }
        Returns: string
      }
      indeed_xml: { Args: never; Returns: string }
      is_admin: { Args: never; Returns: boolean }
      job_advertiser_text: {
        Args: {
          firm: string
          t: Database["public"]["Enums"]["employment_type"]
        }
        Returns: string
      }
      job_alert_label: {
        Args: { a: Database["public"]["Tables"]["job_alerts"]["Row"] }
        Returns: string
      }
      job_contact_href: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: string
      }
      job_description_html: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: string
      }
      job_excerpt: { Args: { description: string }; Returns: string }
      job_full_html: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: string
      }
      job_html_problem: { Args: { html: string }; Returns: string }
      job_missing_fields: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: string[]
      }
      job_posting_json: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: Json
      }
      job_public_json: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: Json
      }
      job_publish_problems: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: string[]
      }
      job_requirements_html: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: string
      }
      job_search_options: { Args: never; Returns: Json }
      job_states_pay: {
        Args: { job: Database["public"]["Tables"]["jobs"]["Row"] }
        Returns: boolean
      }
      job_text_html: { Args: { source: string }; Returns: string }
      job_text_list_html: { Args: { source: string }; Returns: string }
      jobs_rss: { Args: never; Returns: string }
      json_for_script: { Args: { value: Json }; Returns: string }
      my_applications: {
        Args: never
        Returns: {
          applied_at: string
          company: string
          id: string
          job_id: string
          job_status: string
          job_title: string
          status: string
        }[]
      }
      my_saved_jobs: {
        Args: never
        Returns: {
          company: string
          job_id: string
          location: string
          salary: string
          saved_at: string
          status: string
          title: string
          type: string
        }[]
      }
      other_opportunities_html: { Args: { roles: Json }; Returns: string }
      page_head_html: {
        Args: {
          description: string
          page_title: string
          path: string
          robots: string
        }
        Returns: string
      }
      plain_application_status: {
        Args: { status: Database["public"]["Enums"]["application_status"] }
        Returns: string
      }
      post_alert_page: {
        Args: { form: string; query: string; rest: string }
        Returns: Json
      }
      post_jobs_page: {
        Args: { form: string; query: string; rest: string }
        Returns: Json
      }
      privacy_choice: { Args: { token: string }; Returns: Json }
      record_client_link_view: {
        Args: { referrer?: string; token: string; user_agent?: string }
        Returns: boolean
      }
      render_alert_page: {
        Args: { query: string; rest: string }
        Returns: Json
      }
      render_closed_job_page: { Args: { closed_id: string }; Returns: Json }
      render_job_page: { Args: { path: string }; Returns: Json }
      render_job_page_layout: { Args: { path: string }; Returns: Json }
      render_jobs_page: { Args: { query: string; rest: string }; Returns: Json }
      reorder_featured_jobs: {
        Args: { ordered_ids: string[] }
        Returns: undefined
      }
      retention_due: {
        Args: { within?: string }
        Returns: {
          accounts: number
          answer: string
          answered_at: string
          applications: number
          email: string
          enquiries: number
          last_contact_at: string
          next_step: string
          next_step_at: string
          notified_at: string
          profiles: number
          status: string
        }[]
      }
      retention_runs: {
        Args: { max_rows?: number }
        Returns: {
          as_of: string
          deleted: Json
          kind: string
          notices: number
          people_erased: number
          ran_at: string
        }[]
      }
      rfc822: { Args: { at: string }; Returns: string }
      search_jobs: {
        Args: {
          employment_type?: Database["public"]["Enums"]["employment_type"][]
          location?: string
          page?: number
          posted_within?: number
          q?: string
          region?: Database["public"]["Enums"]["uk_region"][]
          salary_min?: number
          sector?: string[]
          sort?: string
          work_arrangement?: Database["public"]["Enums"]["work_arrangement"][]
        }
        Returns: Json
      }
      set_privacy_choice: {
        Args: { choice: string; token: string }
        Returns: Json
      }
      site_identity: { Args: never; Returns: Record<string, unknown> }
      sitemap_xml: { Args: never; Returns: string }
      work_arrangement_label: {
        Args: { w: Database["public"]["Enums"]["work_arrangement"] }
        Returns: string
      }
      xml_cdata: { Args: { value: string }; Returns: string }
    }
    Enums: {
      alert_frequency: "daily" | "weekly"
      application_status:
        | "new"
        | "reviewed"
        | "shortlisted"
        | "interviewing"
        | "offered"
        | "placed"
        | "not_progressed"
        | "withdrawn"
      consent_method: "email" | "phone" | "in_writing"
      employment_type:
        | "permanent"
        | "fixed-term"
        | "contract"
        | "interim"
        | "temporary"
      job_alert_status: "pending" | "active"
      salary_period: "year" | "month" | "week" | "day" | "hour"
      uk_region:
        | "London"
        | "South East"
        | "South West"
        | "East of England"
        | "East Midlands"
        | "West Midlands"
        | "Yorkshire and the Humber"
        | "North West"
        | "North East"
        | "Wales"
        | "Scotland"
        | "Northern Ireland"
      work_arrangement: "on-site" | "hybrid" | "remote"
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never

export const Constants = {
  public: {
    Enums: {
      alert_frequency: ["daily", "weekly"],
      application_status: [
        "new",
        "reviewed",
        "shortlisted",
        "interviewing",
        "offered",
        "placed",
        "not_progressed",
        "withdrawn",
      ],
      consent_method: ["email", "phone", "in_writing"],
      employment_type: [
        "permanent",
        "fixed-term",
        "contract",
        "interim",
        "temporary",
      ],
      job_alert_status: ["pending", "active"],
      salary_period: ["year", "month", "week", "day", "hour"],
      uk_region: [
        "London",
        "South East",
        "South West",
        "East of England",
        "East Midlands",
        "West Midlands",
        "Yorkshire and the Humber",
        "North West",
        "North East",
        "Wales",
        "Scotland",
        "Northern Ireland",
      ],
      work_arrangement: ["on-site", "hybrid", "remote"],
    },
  },
} as const

